import Logging
import Multipeer
import MultipeerPOSIX
import NIOCore
import NIOPosix

/// A ``Multipeer/Transport`` over real TCP, built on SwiftNIO.
///
/// All connections share the event loops of one `EventLoopGroup` (no thread per connection).
/// Frames travel as ``Multipeer/FrameCodec`` defines them; each connection reports to its
/// ``Multipeer/ConnectionHandler`` on its event loop, in the order the ``Multipeer/Transport``
/// contract promises.
///
/// The transport logs at `.debug` only (listening, connections accepted and opened, the error
/// that closes a connection), with the remote address as `peer` metadata: the errors themselves
/// reach the ``Multipeer/Session``, which logs what a peer did wrong at `.notice`.
///
/// ```swift
/// let transport = TCPTransport()
/// let listener = try await transport.listen(port: 0, options: LinkOptions()) { MyHandler() }
/// let connection = try await transport.connect(
///     to: Endpoint(host: "127.0.0.1", port: listener.port),
///     options: LinkOptions(), timeout: .seconds(5), handler: MyHandler())
/// ```
public final class TCPTransport: Transport, Sendable {
    /// The smallest listen backlog: connections the system queues before they are accepted.
    static let backlog: Int32 = 1024

    private let group: any EventLoopGroup
    private let bindHost: String?
    private let sourceHost: String?
    private let credentials: TLSCredentials?
    private let logger: Logger

    /// The logger a transport uses unless given one: labelled `multipeer.nio`.
    static var defaultLogger: Logger { Logger(label: "multipeer.nio") }

    /// Creates a transport.
    ///
    /// - Parameters:
    ///   - group: the event loops that run every socket of this transport; the process-wide
    ///     singleton unless given. The transport never shuts the group down.
    ///   - bindHost: the address to listen on, for example `"127.0.0.1"` to accept only local
    ///     connections; nil listens on all interfaces, IPv6 and IPv4 (`::`, falling back to
    ///     `0.0.0.0` where IPv6 is unavailable).
    ///   - sourceHost: the local address outgoing connections come from (an IP address of this
    ///     machine, of the family of the addresses connected to); nil lets the system choose.
    ///     Tests and the benchmark stand for many machines with the addresses of 127.0.0.0/8.
    ///   - credentials: the identity key and certificate for TLS 1.3 on every connection, both
    ///     ways authenticated (``Multipeer/Connection/provenPeer``); nil speaks plaintext frames.
    ///   - logger: where the transport logs; by default a logger labelled `multipeer.nio`.
    public init(
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, bindHost: String? = nil, sourceHost: String? = nil,
        credentials: TLSCredentials? = nil, logger: Logger = Logger(label: "multipeer.nio")
    ) {
        self.group = group
        self.bindHost = bindHost
        self.sourceHost = sourceHost
        self.credentials = credentials
        self.logger = logger
    }

    /// Whether connections prove their peers' keys: true with TLS credentials.
    public var provesPeers: Bool { credentials != nil }

    /// The real clock, which ticks on a thread of its own.
    public var clock: any SessionClock { SystemClock() }

    /// This machine's interfaces, as the operating system reports them now.
    public func localInterfaces() -> [InterfaceAddress] { NetworkInterfaces.current() }

    /// The system's disk, for one session: its received files are synced in groups of its own.
    public func makeResourceFiles() -> any ResourceFiles { POSIXResourceFiles() }

    /// Accepts TCP connections on `port` until the listener is closed.
    ///
    /// - Parameters:
    ///   - port: the port to listen on, or 0 to let the system choose (see ``Multipeer/Listener/port``).
    ///   - options: limits for every accepted connection.
    ///   - makeHandler: called once per accepted connection, before it opens, for its handler.
    /// - Throws: ``Multipeer/MultipeerError/Code/listenFailed``, for example when the port is in use.
    public func listen(
        port: Int,
        options: LinkOptions,
        makeHandler: @escaping @Sendable () -> any ConnectionHandler
    ) async throws(MultipeerError) -> any Listener {
        guard (0...65535).contains(port) else { throw .listenFailed(port: port, "a port is a number from 0 to 65535") }
        guard let bindHost else {
            do {
                return try await bind(host: "::", port: port, options: options, dualStack: true, makeHandler: makeHandler)
            } catch where NIOErrorMapping.mayMeanNoIPv6(error) {
                // No IPv6 on this machine (or no dual stack): IPv4 only.
                logger.debug("No IPv6 here; listening on IPv4 only.", metadata: ["port": "\(port)"])
            } catch {
                throw NIOErrorMapping.listenFailure(error, port: port, host: "::")
            }
            do {
                return try await bind(host: "0.0.0.0", port: port, options: options, dualStack: false, makeHandler: makeHandler)
            } catch {
                throw NIOErrorMapping.listenFailure(error, port: port, host: "0.0.0.0")
            }
        }
        do {
            return try await bind(host: bindHost, port: port, options: options, dualStack: false, makeHandler: makeHandler)
        } catch {
            throw NIOErrorMapping.listenFailure(error, port: port, host: bindHost)
        }
    }

    /// Connects to `endpoint` over TCP (and, with credentials, completes the TLS handshake, so
    /// that the connection's ``Multipeer/Connection/provenPeer`` is known); `handler` has seen
    /// ``Multipeer/ConnectionHandler/connectionDidOpen(_:)`` by the time this returns.
    ///
    /// - Parameters:
    ///   - endpoint: where to connect; a host name is resolved, and its IPv6 and IPv4 addresses
    ///     are tried as Happy Eyeballs does.
    ///   - options: limits for this connection.
    ///   - timeout: how long resolving and connecting may take together.
    ///   - openTimeout: how long the TLS handshake may take after them (a host with every
    ///     handshake place taken holds a newcomer unread until one frees); at least `timeout`.
    ///   - handler: receives what happens on the connection.
    /// - Throws: ``Multipeer/MultipeerError/Code/connectionFailed``, with the reason ("connection
    ///   refused", "the network is unreachable", …); ``Multipeer/MultipeerError/Code/hostNotAnswering``
    ///   when nothing answered within `timeout`; over TLS also
    ///   ``Multipeer/MultipeerError/Code/secureHandshakeFailed`` and
    ///   ``Multipeer/MultipeerError/Code/peerNotProved`` (a certificate refused, with why).
    public func connect(
        to endpoint: Endpoint,
        options: LinkOptions,
        timeout: Duration,
        openTimeout: Duration,
        handler: any ConnectionHandler
    ) async throws(MultipeerError) -> any Connection {
        // One event loop for all of this connect's attempts, so the promise and the gate are simple.
        let eventLoop = group.next()
        let opened = eventLoop.makePromise(of: TCPConnection.self)
        let gate = OpenGate()
        let logger = self.logger
        let credentials = self.credentials
        var bootstrap = ClientBootstrap(group: eventLoop)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .channelOption(.writeBufferWaterMark, value: ConnectionPipeline.writeBufferWaterMark(options))
            .connectTimeout(TimeAmount(timeout))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try ConnectionPipeline.configure(
                        channel, side: .connecting, options: options, credentials: credentials, handler: handler, gate: gate, opened: opened, logger: logger)
                }
            }
        let channel: any Channel
        do {
            if let sourceHost { bootstrap = bootstrap.bind(to: try SocketAddress(ipAddress: sourceHost, port: 0)) }
            channel = try await bootstrap.connect(host: endpoint.host, port: endpoint.port).get()
        } catch {
            opened.fail(error)  // No channel became active; the promise must still be answered.
            throw NIOErrorMapping.connectFailure(error, endpoint: endpoint, timeout: timeout)
        }
        // A channel closed before it opened never opens: answer the promise then (once it has
        // been answered, failing it changes nothing).
        channel.closeFuture.whenComplete { _ in opened.fail(ChannelError.ioOnClosedChannel) }
        // Over TLS the connection opens after the handshake, which must finish in its own time.
        let handshakeTime = max(openTimeout, timeout)
        let handshakeDeadline = channel.eventLoop.scheduleTask(deadline: .now() + TimeAmount(handshakeTime)) {
            opened.fail(MultipeerError.secureHandshakeFailed("no answer to the secure handshake within \(MultipeerError.secondsText(handshakeTime))"))
            channel.close(promise: nil)
        }
        opened.futureResult.whenComplete { _ in handshakeDeadline.cancel() }
        do {
            return try await opened.futureResult.get()
        } catch let error as MultipeerError {
            throw error
        } catch {
            throw .connectionFailed(endpoint, "the connection closed as soon as it opened")
        }
    }

    private func bind(
        host: String,
        port: Int,
        options: LinkOptions,
        dualStack: Bool,
        makeHandler: @escaping @Sendable () -> any ConnectionHandler
    ) async throws -> TCPListener {
        let logger = self.logger
        let credentials = self.credentials
        var bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(.backlog, value: Self.backlog)
            // Out of file descriptors, accepting pauses for a second instead of spinning on the
            // error (the future-based `bind` does not install the handler by itself).
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(AcceptBackoffHandler(shouldForwardIOErrorCaught: false))
                }
            }
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelOption(.writeBufferWaterMark, value: ConnectionPipeline.writeBufferWaterMark(options))
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try ConnectionPipeline.configure(
                        channel, side: .accepting, options: options, credentials: credentials, handler: makeHandler(), logger: logger)
                }
            }
        if dualStack {
            // Accept IPv4 too, whatever the system default (`net.ipv6.bindv6only`) says.
            bootstrap = bootstrap.serverChannelOption(
                ChannelOptions.Types.SocketOption(level: .ipv6, name: .ipv6_v6only), value: 0
            )
        }
        let channel = try await bootstrap.bind(host: host, port: port).get()
        let bound = channel.localAddress?.port ?? port
        logger.debug("Listening.", metadata: ["host": .string(host), "port": "\(bound)"])
        return TCPListener(channel: channel, port: bound)
    }
}
