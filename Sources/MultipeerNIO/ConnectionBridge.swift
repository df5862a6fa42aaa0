import Logging
import Multipeer
import NIOCore
import NIOTLS
import Synchronization

/// The last inbound handler of a connection's pipeline: it cuts the bytes into frames (a
/// ``NIOFrameDecoder`` driven by swift-nio's `NIOSingleStepByteToMessageProcessor`) and turns
/// channel events into ``Multipeer/ConnectionHandler`` calls, keeping the order the
/// ``Multipeer/Transport`` contract promises.
///
/// It drives the decoder itself rather than behind NIO's generic `ByteToMessageHandler`: that
/// handler's unspecialised generic code (metadata look-ups, a boxed and cast `NIOAny` per
/// frame) cost more per frame than the session's own work on a guess; the processor is
/// inlinable and hands each frame to the handler directly.
///
/// `connectionDidOpen` once, first; each decoded frame and each change of writability (the
/// write-buffer water marks), serially on the channel's event loop; `didCloseWith` exactly once,
/// last (channel inactive), with nil for an orderly close or the first error seen. An error (from
/// the decoder or the socket) is recorded and the channel closed; the handler hears of it only in
/// `didCloseWith`.
///
/// An accepted connection opens when its channel becomes active (so that the session counts
/// and times its handshake from the first moment). A client connection over TLS opens only
/// when the TLS handshake has completed, with the peer's key proved: whatever the session sends
/// first (its HELLO and the invitation's context) can then go only to a peer it has checked.
/// Such a connection that closes before it opens never reaches the handler: the `opened`
/// promise fails with the reason instead.
///
/// It logs at `.debug` only: a connection opening, and the error that closes one (the session
/// above judges whether that error was the peer's fault and logs it at its own level).
final class ConnectionBridge: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let handler: any ConnectionHandler
    private let maximumQueuedBytes: Int
    private let maximumFlushBytes: Int?
    /// Cuts the bytes into frames, keeping those of a frame that has not fully arrived yet (and
    /// nothing of a read that ended with a whole frame: ``NIOFrameDecoder`` lets that buffer go).
    private let frames: NIOSingleStepByteToMessageProcessor<NIOFrameDecoder>
    private let check: PeerCertificateCheck?
    private let gate: OpenGate?
    private let logger: Logger
    private var opened: EventLoopPromise<TCPConnection>?
    private var connection: TCPConnection?
    /// Whether the handler has seen `connectionDidOpen`.
    private var isOpen = false
    /// Whether the TLS handshake has completed: a TLS error after it is a connection failing,
    /// not a handshake refused.
    private var isSecured = false
    private var firstError: MultipeerError?
    private var closed = false

    /// - Parameters:
    ///   - handler: the handler to report to.
    ///   - gate: for client connections, shared by all of one `connect`'s attempts (Happy Eyeballs
    ///     may try several addresses): only the first channel to become active reaches the handler.
    ///   - opened: succeeded with the connection once the handler has seen `connectionDidOpen`;
    ///     never failed here.
    ///   - logger: where the connection's life is logged.
    init(
        handler: any ConnectionHandler, options: LinkOptions = LinkOptions(), check: PeerCertificateCheck? = nil, gate: OpenGate? = nil, opened: EventLoopPromise<TCPConnection>? = nil,
        logger: Logger = TCPTransport.defaultLogger
    ) {
        self.handler = handler
        maximumQueuedBytes = options.maximumQueuedBytes
        maximumFlushBytes = options.maximumFlushBytes
        frames = NIOSingleStepByteToMessageProcessor(NIOFrameDecoder(maximumFrameLength: options.maximumFrameLength))
        self.check = check
        self.gate = gate
        self.opened = opened
        self.logger = logger
    }

    func channelActive(context: ChannelHandlerContext) {
        guard gate?.claim() ?? true else {
            // Another attempt of the same connect opened first: close this one without a word.
            context.close(promise: nil)
            return
        }
        connection = TCPConnection(
            channel: context.channel,
            remoteDescription: context.channel.remoteAddress.map(RemoteAddressText.describe) ?? "an unknown address",
            maximumQueuedBytes: maximumQueuedBytes,
            maximumFlushBytes: maximumFlushBytes,
            check: check
        )
        // Only client connections have an `opened` promise; over TLS they open after the handshake.
        if opened == nil || check == nil { open() }
        context.fireChannelActive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case TLSUserEvent.handshakeCompleted? = event as? TLSUserEvent {
            isSecured = true
            if !isOpen, !closed, firstError == nil { open() }
        }
        context.fireUserInboundEventTriggered(event)
    }

    private func open() {
        guard let connection, !isOpen else { return }
        isOpen = true
        logger.debug(opened == nil ? "Connection accepted." : "Connection opened.", metadata: ["peer": .string(connection.remoteDescription)])
        handler.connectionDidOpen(connection)
        opened?.succeed(connection)
        opened = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // NIOSSL hands up no application data before its handshake completes, so a client
        // connection is open before its first bytes arrive.
        guard let connection, isOpen, !closed, firstError == nil else { return }
        // An empty read has nothing to decode, and the processor would keep its buffer's storage.
        let buffer = Self.unwrapInboundIn(data)
        guard buffer.readableBytes > 0 else { return }
        // Each frame is delivered before the next is decoded; the handler may close the
        // connection meanwhile, and then the rest is dropped.
        var delivered = false
        do {
            try frames.process(buffer: buffer) { frame in
                guard !closed, firstError == nil else { throw StopReading() }
                handler.connection(connection, didReceive: frame)
                delivered = true
            }
            if delivered { handler.connectionDidFinishDelivering(connection) }
        } catch is StopReading {
            return
        } catch {
            errorCaught(context: context, error: error)
        }
    }

    /// Ends a read whose connection closed while its frames were delivered.
    private struct StopReading: Error {}

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if let connection, isOpen, !closed { handler.connection(connection, didChangeWritability: context.channel.isWritable) }
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        record(error)
        context.close(promise: nil)
    }

    /// Keeps `error` as the one `didCloseWith` reports, unless an error came first. Errors
    /// provoked by a close this side asked for (say, a reset while half-closed) are not
    /// reported: that close is orderly.
    private func record(_ error: any Error) {
        guard firstError == nil, connection?.isClosing != true else { return }
        // A refused certificate says why better than the TLS error it causes.
        let mapped = check?.refusal ?? NIOErrorMapping.connectionError(error, secured: isSecured)
        firstError = mapped
        logger.debug("Connection closing on an error.", metadata: [
            "peer": .string(connection?.remoteDescription ?? "an unknown address"),
            "code": .string(mapped.code.rawValue), "error": .string(mapped.message),
        ])
    }

    func channelInactive(context: ChannelHandlerContext) {
        if isOpen, !closed, firstError == nil {
            do { try frames.finishProcessing(seenEOF: true) { _ in } } catch { record(error) }
        }
        reportClose()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        // Normally a no-op: channelInactive comes first. Several Happy Eyeballs attempts share the
        // `opened` promise: only the attempt that claimed the gate fails it (a failed attempt must
        // not fail the winner); `TCPTransport.connect` answers it when no channel opens.
        reportClose()
    }

    private func reportClose() {
        guard let connection, !closed else { return }
        closed = true
        guard isOpen else {
            // A client connection that closed during its TLS handshake: the connect fails instead.
            opened?.fail(firstError ?? .secureHandshakeFailed("the other side closed the connection during the handshake"))
            opened = nil
            return
        }
        handler.connection(connection, didCloseWith: firstError)
    }
}

/// Lets exactly one of several channels claim a handler.
final class OpenGate: Sendable {
    private let claimed = Mutex(false)

    /// True for the first caller only.
    func claim() -> Bool {
        claimed.withLock { claimed in
            defer { claimed = true }
            return !claimed
        }
    }
}
