#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A TCP port on 127.0.0.1 whose connections the kernel completes and nobody ever reads: a host
/// that answers a connect and then nothing (stopped, or holding the newcomer unread).
public final class UnansweringListener: Sendable {
    private let descriptor: Int32
    /// The port it listens on.
    public let port: Int

    public init() throws {
        let descriptor = try RawSocket.tcpSocket()
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            let code = errno
            close(descriptor)
            throw RawSocket.Failure(call: "bind or listen", code: code)
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}
