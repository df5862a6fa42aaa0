import Foundation
import Multipeer
import Synchronization

/// A session's TCP/TLS transport as the resource benchmark uses it: it counts the bytes of
/// stream data the session hands to its connections (the body of each STREAM_DATA frame, so a
/// resumed transfer's re-sent bytes are counted where they leave the session), and it can cut
/// every open link at once (``cut()``: each connection closes, without a GOODBYE from the
/// session, as when a link drops). The session sees a wrapper around each connection; the
/// counting is one atomic add a frame, per connection.
final class CuttableTransport: Transport {
    private let base: any Transport
    private let links = Mutex<(open: [ObjectIdentifier: CountedConnection], closedBytes: [Int])>(([:], []))

    init(base: any Transport) {
        self.base = base
    }

    var provesPeers: Bool { base.provesPeers }
    var clock: any SessionClock { base.clock }
    func localInterfaces() -> [InterfaceAddress] { base.localInterfaces() }
    func makeResourceFiles() -> any ResourceFiles { base.makeResourceFiles() }

    /// The bytes of stream data sent on each link this transport made that closed, in the order
    /// they closed.
    var closedLinkBytes: [Int] { links.withLock { $0.closedBytes } }

    /// The bytes of stream data sent on the links open now.
    var openLinkBytes: Int { links.withLock { $0.open.values.reduce(0) { $0 + $1.streamBytesSent } } }

    func listen(
        port: Int, options: LinkOptions, makeHandler: @escaping @Sendable () -> any ConnectionHandler
    ) async throws(MultipeerError) -> any Listener {
        try await base.listen(port: port, options: options) { [weak self] in
            WrappingHandler(handler: makeHandler(), owner: self)
        }
    }

    func connect(
        to endpoint: Endpoint, options: LinkOptions, timeout: Duration, openTimeout: Duration, handler: any ConnectionHandler
    ) async throws(MultipeerError) -> any Connection {
        let wrapping = WrappingHandler(handler: handler, owner: self)
        let connection = try await base.connect(to: endpoint, options: options, timeout: timeout, openTimeout: openTimeout, handler: wrapping)
        return wrapping.wrapper(for: connection)
    }

    // The base transport's broadcast expects its own connections: send to each wrapper instead.
    func broadcast(_ frame: EncodedFrame, to connections: [any Connection]) {
        for connection in connections { connection.send(frame) }
    }

    /// Closes every open connection, saying nothing: both sessions see the link drop.
    func cut() {
        let connections = links.withLock { Array($0.open.values) }
        for connection in connections { connection.close() }
    }

    fileprivate func opened(_ connection: CountedConnection) {
        links.withLock { $0.open[ObjectIdentifier(connection)] = connection }
    }

    fileprivate func closed(_ connection: CountedConnection) {
        links.withLock { links in
            guard links.open.removeValue(forKey: ObjectIdentifier(connection)) != nil else { return }
            links.closedBytes.append(connection.streamBytesSent)
        }
    }
}

/// A connection as the session sees it: the transport's own, with its stream data counted.
private final class CountedConnection: Connection {
    let base: any Connection
    private let streamBytes = Atomic<Int>(0)

    /// STREAM_DATA's kind byte and the bytes before its data (length prefix, kind, stream id),
    /// read off an encoded frame rather than assumed.
    private static let (dataKind, dataHeaderBytes): (UInt8, Int) = {
        let sample = FrameCodec.encode(.streamData(id: 1, bytes: Data([0]))).bytes
        return (sample[WireProtocol.lengthPrefixBytes], sample.count - 1)
    }()

    init(base: any Connection) {
        self.base = base
    }

    /// The bytes of stream data sent on this connection.
    var streamBytesSent: Int { streamBytes.load(ordering: .relaxed) }

    var remoteDescription: String { base.remoteDescription }
    var remoteAddress: String { base.remoteAddress }
    var provenPeer: PeerFingerprint? { base.provenPeer }
    var provenOwner: PeerFingerprint? { base.provenOwner }
    var localKey: PeerFingerprint? { base.localKey }

    func send(_ frame: EncodedFrame) {
        let bytes = frame.bytes
        if bytes.count > Self.dataHeaderBytes, bytes[WireProtocol.lengthPrefixBytes] == Self.dataKind {
            streamBytes.wrappingAdd(bytes.count - Self.dataHeaderBytes, ordering: .relaxed)
        }
        base.send(frame)
    }

    func close() { base.close() }
    func pauseReading() { base.pauseReading() }
    func resumeReading() { base.resumeReading() }
}

/// Hands the session's handler the wrapper of each connection instead of the connection.
private final class WrappingHandler: ConnectionHandler {
    let handler: any ConnectionHandler
    let owner: CuttableTransport?
    private let wrapped = Mutex<CountedConnection?>(nil)

    init(handler: any ConnectionHandler, owner: CuttableTransport?) {
        self.handler = handler
        self.owner = owner
    }

    /// The wrapper of `connection`, made the first time it is asked for.
    func wrapper(for connection: any Connection) -> CountedConnection {
        let (wrapper, made) = wrapped.withLock { wrapped -> (CountedConnection, Bool) in
            if let existing = wrapped { return (existing, false) }
            let made = CountedConnection(base: connection)
            wrapped = made
            return (made, true)
        }
        if made { owner?.opened(wrapper) }
        return wrapper
    }

    func connectionDidOpen(_ connection: any Connection) {
        handler.connectionDidOpen(wrapper(for: connection))
    }

    func connection(_ connection: any Connection, didReceive frame: Frame) {
        handler.connection(wrapper(for: connection), didReceive: frame)
    }

    func connection(_ connection: any Connection, didChangeWritability isWritable: Bool) {
        handler.connection(wrapper(for: connection), didChangeWritability: isWritable)
    }

    func connection(_ connection: any Connection, didCloseWith error: MultipeerError?) {
        let wrapper = wrapper(for: connection)
        owner?.closed(wrapper)
        handler.connection(wrapper, didCloseWith: error)
    }
}
