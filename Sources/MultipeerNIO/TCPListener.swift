import Multipeer
import NIOCore

/// A listening TCP socket: a ``Multipeer/Listener`` over a NIO server channel.
final class TCPListener: Listener, Sendable {
    let port: Int
    private let channel: any Channel

    init(channel: any Channel, port: Int) {
        self.channel = channel
        self.port = port
    }

    /// Closes the listening socket only; accepted connections are channels of their own and stay open.
    func close() async {
        try? await channel.close().get()  // Already closed is fine.
    }
}
