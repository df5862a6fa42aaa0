import Logging
import Multipeer
import NIOCore
import NIOSSL

/// The handlers and options every connection gets, on both the accepting and the connecting side.
enum ConnectionPipeline {
    /// When the bytes waiting to be written exceed `high` the channel reports itself unwritable,
    /// and writable again below `low`; the bridge passes both to the connection's handler, and the
    /// session stops broadcasting to a backlogged peer. The default marks (256 KiB, 1 MiB) leave
    /// room for several frames of the default maximum length, so one large frame does not flip
    /// the state.
    static func writeBufferWaterMark(_ options: LinkOptions) -> ChannelOptions.Types.WriteBufferWaterMark {
        ChannelOptions.Types.WriteBufferWaterMark(low: options.backlogLowWaterMark, high: options.backlogHighWaterMark)
    }

    /// Which end of the connection this side is, for TLS.
    enum Side { case accepting, connecting }

    /// Adds TLS (when `credentials` are given), the framing and the bridge to `channel`'s
    /// pipeline; call it on the channel's event loop, from a channel initializer.
    ///
    /// The pipeline, from the socket up:
    ///
    ///     socket → [PlaintextRefusalHandler → NIOSSL handler] → ConnectionBridge (framing included)
    ///
    /// TLS sits below the framing, so the decoder sees plain frame bytes. A TLS channel allocates
    /// from ``PageBackedAllocator``, so that the large buffers NIOSSL keeps for a connection's
    /// life are resident only in the pages it uses. The TLS handler checks
    /// the peer's certificate with a ``PeerCertificateCheck`` that the connection keeps, for
    /// ``Multipeer/Connection/provenPeer``. Writes carry ready-made frame bytes
    /// (`EncodedFrame`), so no encoder handler is needed.
    static func configure(
        _ channel: any Channel,
        side: Side,
        options: LinkOptions,
        credentials: TLSCredentials?,
        handler: any ConnectionHandler,
        gate: OpenGate? = nil,
        opened: EventLoopPromise<TCPConnection>? = nil,
        logger: Logger = TCPTransport.defaultLogger
    ) throws {
        let sync = channel.pipeline.syncOperations
        var check: PeerCertificateCheck?
        if let credentials {
            // Before NIOSSL's handler takes its two large buffers from the channel's allocator.
            try channel.syncOptions?.setOption(ChannelOptions.allocator, value: PageBackedAllocator.allocator)
            let peerCheck = PeerCertificateCheck(localKey: credentials.fingerprint)
            check = peerCheck
            switch side {
            case .accepting:
                try sync.addHandler(PlaintextRefusalHandler())
                try sync.addHandler(NIOSSLServerHandler(context: credentials.serverContext, customVerificationCallback: peerCheck.verify))
            case .connecting:
                try sync.addHandler(NIOSSLClientHandler(context: credentials.clientContext, serverHostname: nil, customVerificationCallback: peerCheck.verify))
            }
        }
        try sync.addHandler(ConnectionBridge(handler: handler, options: options, check: check, gate: gate, opened: opened, logger: logger))
    }
}
