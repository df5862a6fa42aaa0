import Logging
import Multipeer
import NIOCore

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

    /// Adds the framing and the bridge to `channel`'s pipeline; call it on the channel's event loop,
    /// from a channel initializer.
    ///
    /// The pipeline, from the socket up:
    ///
    ///     socket → [TLS goes here] → ByteToMessageHandler(FrameDecodingHandler) → ConnectionBridge
    ///
    /// A later issue inserts NIOSSL's handler *below* the framing, i.e. before the decoder, so the
    /// decoder keeps seeing plain bytes. Writes carry ready-made frame bytes (`EncodedFrame`), so no
    /// encoder handler is needed.
    static func configure(
        _ channel: any Channel,
        options: LinkOptions,
        handler: any ConnectionHandler,
        gate: OpenGate? = nil,
        opened: EventLoopPromise<TCPConnection>? = nil,
        logger: Logger = TCPTransport.defaultLogger
    ) throws {
        let sync = channel.pipeline.syncOperations
        // TLS: `try sync.addHandler(NIOSSLServerHandler(...))` / `NIOSSLClientHandler` here.
        try sync.addHandler(ByteToMessageHandler(FrameDecodingHandler(maximumFrameLength: options.maximumFrameLength)))
        try sync.addHandler(ConnectionBridge(handler: handler, options: options, gate: gate, opened: opened, logger: logger))
    }
}
