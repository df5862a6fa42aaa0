import Multipeer
import MultipeerNIO
import NIOCore
import NIOPosix
import NIOSSL

/// Bare swift-nio connections for the baselines and floors: the event-loop group, TCP options
/// and write-buffer marks of a session's link and, with TLS, the same library, key kind (P-256,
/// a self-signed certificate from ``TLSCredentials``) and TLS 1.3 — and one handler above,
/// nothing else: no framing, no session, no game. Both sides present a certificate, as
/// guessnum's do; neither checks the other's here (the check happens once, in the handshake,
/// and is not what is measured).
enum BareChannel {
    /// The write-buffer marks of a session's link (``LinkOptions``' defaults).
    static let waterMark = ChannelOptions.Types.WriteBufferWaterMark(
        low: LinkOptions().backlogLowWaterMark, high: LinkOptions().backlogHighWaterMark)

    static func acceptAnyCertificate(_ chain: [NIOSSLCertificate], _ promise: EventLoopPromise<NIOSSLVerificationResult>) {
        promise.succeed(.certificateVerified)
    }

    /// A connection to `port` on loopback, with the handler `makeHandler` makes above TLS (with
    /// `tls`) or the socket.
    static func connect(port: Int, tls: Bool, _ makeHandler: @escaping @Sendable () -> any ChannelHandler) async throws -> any Channel {
        let credentials = try TLSCredentials(key: PeerKey.generate())
        return try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .channelOption(.writeBufferWaterMark, value: waterMark)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    if tls {
                        try sync.addHandler(NIOSSLClientHandler(
                            context: credentials.clientContext, serverHostname: nil, customVerificationCallback: acceptAnyCertificate))
                    }
                    try sync.addHandler(makeHandler())
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
    }

    /// A listener on loopback (a port of the system's choice) whose connections each get the
    /// handler `makeHandler` makes, above TLS (with `tls`) or the socket.
    static func listen(tls: Bool, _ makeHandler: @escaping @Sendable () -> any ChannelHandler) async throws -> any Channel {
        let credentials = try TLSCredentials(key: PeerKey.generate())
        return try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelOption(.writeBufferWaterMark, value: waterMark)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    if tls {
                        try sync.addHandler(NIOSSLServerHandler(context: credentials.serverContext, customVerificationCallback: acceptAnyCertificate))
                    }
                    try sync.addHandler(makeHandler())
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
    }
}
