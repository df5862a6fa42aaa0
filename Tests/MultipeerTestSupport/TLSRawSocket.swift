import Multipeer
import MultipeerNIO
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS
import Synchronization

/// A TLS 1.3 client to 127.0.0.1 that sends whatever bytes a test gives it inside TLS, for
/// speaking to a real host as no well-behaved peer would: frames out of order, floods, a guest
/// that stops reading. It presents a certificate for its own key and accepts any host's.
///
/// Reads wait at most `readTimeout`, so tests cannot hang on them.
public final class TLSRawSocket: Sendable {
    /// The key this client proves; its identity is what a HELLO must claim to be let in.
    public let key: PeerKey
    private let channel: any Channel
    private let inbox: Inbox
    private let readTimeout: Duration

    /// Connects from `source` (any of 127.0.0.0/8) and completes the TLS handshake.
    ///
    /// - Parameters:
    ///   - receiveBufferBytes: a small receive buffer makes the pile-up come sooner.
    ///   - firstBytes: written from the connection's own event loop the moment the handshake
    ///     completes (a HELLO, say), as a real peer writes its first frame: the host's
    ///     handshake deadline (5 s from its accept) then never depends on how soon the test's
    ///     task runs again on a busy cooperative pool.
    ///   - heartbeats: after `firstBytes`, write a HEARTBEAT every second from the event loop, as
    ///     a live peer does, so that the host's peer timeout (2.5 s) never drops a client whose
    ///     test has not written for a while on a busy machine.
    public static func connect(
        port: Int, from source: String = "127.0.0.1", key: PeerKey = .generate(),
        receiveBufferBytes: Int? = nil, readTimeout: Duration = .seconds(30), firstBytes: [UInt8] = [], heartbeats: Bool = false
    ) async throws -> TLSRawSocket {
        let credentials = try TLSCredentials(key: key)
        let inbox = Inbox(firstBytes: firstBytes, heartbeats: heartbeats)
        var bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(5))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    try sync.addHandler(NIOSSLClientHandler(
                        context: credentials.clientContext, serverHostname: nil,
                        customVerificationCallback: { _, promise in promise.succeed(.certificateVerified) }))
                    try sync.addHandler(inbox)
                }
            }
        if let receiveBufferBytes {
            bootstrap = bootstrap.channelOption(.socketOption(.so_rcvbuf), value: SocketOptionValue(receiveBufferBytes))
        }
        if source != "127.0.0.1" {
            bootstrap = bootstrap.bind(to: try SocketAddress(ipAddress: source, port: 0))
        }
        let channel = try await bootstrap.connect(host: "127.0.0.1", port: port).get()
        try await inbox.handshake.futureResult.get()
        return TLSRawSocket(key: key, channel: channel, inbox: inbox, readTimeout: readTimeout)
    }

    private init(key: PeerKey, channel: any Channel, inbox: Inbox, readTimeout: Duration) {
        self.key = key
        self.channel = channel
        self.inbox = inbox
        self.readTimeout = readTimeout
    }

    /// The peer `name` with this client's identity, for a HELLO the host accepts.
    public func peer(_ name: String) throws -> PeerID { try key.peer(displayName: name) }

    /// Sends `bytes` inside TLS; never blocks.
    public func write(_ bytes: [UInt8]) {
        channel.writeAndFlush(channel.allocator.buffer(bytes: bytes), promise: nil)
    }

    /// Reads one whole frame (length prefix, kind byte, body), or nil when the host closes or
    /// nothing comes in time.
    public func readFrame() async -> [UInt8]? {
        await inbox.take(within: readTimeout) { bytes in
            guard bytes.count >= 4 else { return nil }
            let length = bytes.prefix(4).reduce(0) { $0 << 8 | Int($1) }
            return bytes.count >= 4 + length ? 4 + length : nil
        }
    }

    /// Reads what has arrived, waiting for the first byte; with how the stream ended, if it did.
    public func readSome() async -> (bytes: [UInt8], end: RawSocket.ReadEnd?) {
        let bytes = await inbox.take(within: readTimeout) { $0.isEmpty ? nil : $0.count } ?? []
        return (bytes, inbox.end)
    }

    /// Reads until the host closes or the timeout passes.
    public func readToEnd() async -> (bytes: [UInt8], end: RawSocket.ReadEnd) {
        let deadline = ContinuousClock.now + readTimeout
        while inbox.end == nil, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(5)) }
        let bytes = await inbox.take(within: .zero) { $0.count } ?? []
        return (bytes, inbox.end ?? .timedOut)
    }

    /// Stops reading from the socket: what the host sends from now on piles up, in this
    /// machine's receive buffer and then in the host.
    public func stopReading() async throws {
        try await channel.setOption(.autoRead, value: false).get()
    }

    /// Whether the host has closed the connection.
    public var isClosed: Bool { inbox.end != nil }

    /// Closes the connection.
    public func close() {
        channel.close(promise: nil)
    }
}

/// Collects what the host sends, in plaintext after TLS.
private final class Inbox: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    private struct State {
        var bytes: [UInt8] = []
        var end: RawSocket.ReadEnd?
    }

    private let state = Mutex(State())
    private let handshakeSettled = Mutex(false)
    let handshake: EventLoopPromise<Void>
    /// Written as soon as the handshake completes.
    private let firstBytes: [UInt8]
    /// Whether a HEARTBEAT goes out every second once the handshake completes.
    private let heartbeats: Bool

    init(firstBytes: [UInt8] = [], heartbeats: Bool = false) {
        handshake = MultiThreadedEventLoopGroup.singleton.next().makePromise()
        self.firstBytes = firstBytes
        self.heartbeats = heartbeats
    }

    var end: RawSocket.ReadEnd? { state.withLock { $0.end } }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = Self.unwrapInboundIn(data)
        state.withLock { $0.bytes += buffer.readableBytesView }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case TLSUserEvent.handshakeCompleted = event {
            if !firstBytes.isEmpty { context.channel.writeAndFlush(context.channel.allocator.buffer(bytes: firstBytes), promise: nil) }
            if heartbeats {
                let channel = context.channel
                let beat = FrameCodec.encode(.heartbeat).bytes
                channel.eventLoop.scheduleRepeatedTask(initialDelay: .seconds(1), delay: .seconds(1)) { task in
                    guard channel.isActive else { return task.cancel() }
                    channel.writeAndFlush(channel.allocator.buffer(bytes: beat), promise: nil)
                }
            }
            settleHandshake(nil)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        state.withLock { if $0.end == nil { $0.end = .reset } }
        settleHandshake(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        state.withLock { if $0.end == nil { $0.end = .closed } }
        settleHandshake(ChannelError.eof)
    }

    private func settleHandshake(_ error: (any Error)?) {
        guard !handshakeSettled.withLock({ settled in defer { settled = true }; return settled }) else { return }
        if let error { handshake.fail(error) } else { handshake.succeed(()) }
    }

    /// Takes the first `count(bytes)` bytes once `count` says how many (nil: not yet), waiting
    /// up to `timeout`; nil when nothing whole came.
    func take(within timeout: Duration, _ count: ([UInt8]) -> Int?) async -> [UInt8]? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let taken: [UInt8]? = state.withLock { state in
                guard let wanted = count(state.bytes) else { return nil }
                defer { state.bytes.removeFirst(wanted) }
                return Array(state.bytes.prefix(wanted))
            }
            if let taken { return taken }
            if end != nil || ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}
