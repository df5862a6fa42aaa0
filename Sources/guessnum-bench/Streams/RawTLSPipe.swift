import Foundation
import Multipeer
import MultipeerNIO
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS

/// The baseline for a stream's throughput: bare TLS 1.3 over loopback TCP with swift-nio-ssl,
/// the same library, key kind (P-256, a self-signed certificate from ``TLSCredentials``),
/// event-loop group, TCP options and write-buffer marks as a session's link, and nothing above
/// it: no framing, no session, no credit. The sender writes pieces while the channel is
/// writable, as fast as NIO lets it; the sink (``RawTLSSink``) only counts.
enum RawTLSPipe {
    /// Sends `bytes` in pieces of `pieceBytes` over a new TLS connection to the sink on `port`
    /// and closes it; returns the moment the handshake completed and writing began.
    static func send(bytes: Int, pieceBytes: Int, to port: Int) async throws -> UInt64 {
        let done = MultiThreadedEventLoopGroup.singleton.next().makePromise(of: UInt64.self)
        let channel = try await BareChannel.connect(port: port, tls: true) { BulkWriter(total: bytes, pieceBytes: pieceBytes, done: done) }
        defer { channel.close(promise: nil) }
        return try await done.futureResult.get()
    }
}

/// Writes `total` bytes once the TLS handshake is done, a piece at a time while the channel is
/// writable, and reports the start once the last piece reached the socket.
final class BulkWriter: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private var remaining: Int
    private let piece: ByteBuffer
    private let done: EventLoopPromise<UInt64>
    private var start: UInt64?
    private var completed = false

    init(total: Int, pieceBytes: Int, done: EventLoopPromise<UInt64>) {
        remaining = total
        piece = ByteBuffer(bytes: StreamPayload.piece(pieceBytes))
        self.done = done
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted? = event as? TLSUserEvent, start == nil {
            start = MonotonicClock.nanoseconds()
            pump(context)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, start != nil { pump(context) }
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish(.failure(error))
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(.failure(BenchFailure("the raw TLS connection closed before everything was written")))
        context.fireChannelInactive()
    }

    private func pump(_ context: ChannelHandlerContext) {
        while remaining > 0, context.channel.isWritable {
            let count = min(remaining, piece.readableBytes)
            remaining -= count
            let slice = piece.getSlice(at: piece.readerIndex, length: count)!
            guard remaining == 0 else {
                context.writeAndFlush(wrapOutboundOut(slice), promise: nil)
                continue
            }
            let written = context.eventLoop.makePromise(of: Void.self)
            context.writeAndFlush(wrapOutboundOut(slice), promise: written)
            let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
            written.futureResult.whenComplete { result in
                bound.value.finish(result.map { bound.value.start ?? 0 })
            }
        }
    }

    private func finish(_ result: Result<UInt64, any Error>) {
        guard !completed else { return }
        completed = true
        done.completeWith(result)
    }
}

/// The `tls-sink` role: a bare TLS server that counts each connection's bytes and reports
/// them (a ``ByteTally``) when the connection closes.
enum RawTLSSink {
    static func run() async throws {
        let server = try await BareChannel.listen(tls: true) { ByteCounter() }
        LineChannel.emit(#"{"event":"listening","cpu_ns":\#(ProcessCPU.nanoseconds()),"port":\#(server.localAddress?.port ?? 0)}"#)
        var commands = LineChannel.lines(from: STDIN_FILENO).makeAsyncIterator()
        _ = await commands.next()  // "quit" or end of input
        try? await server.close()
    }
}

/// Counts what one raw TLS connection delivers, and reports it when the connection closes.
final class ByteCounter: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    private var tally = ByteTally()
    private var reported = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        tally.add(Self.unwrapInboundIn(data).readableBytes, at: MonotonicClock.nanoseconds())
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !reported {
            reported = true
            LineChannel.emit(tally.json)
        }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)  // an unclean shutdown after the last byte changes nothing counted
    }
}

/// The bytes every sender of the benchmark writes (streams and the raw pipe alike).
enum StreamPayload {
    /// `count` bytes that differ from one offset to the next (not all zero, so nothing on the
    /// way could make them cheaper).
    static func piece(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
    }
}
