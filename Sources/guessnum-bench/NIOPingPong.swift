import ArgumentParser
import Foundation
import Multipeer
import MultipeerNIO
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS

/// The limit this design can reach for a round trip: a swift-nio client and echo server doing
/// the guess's ping-pong — the same request and reply sizes, the same event-loop group, TCP
/// options and, with TLS, the same library, key kind and TLS 1.3 as a session's link — with
/// nothing above the channel: no framing, no session, no game. The loop runs on the client's
/// event loop (a reply complete, the next request is written at once), against an echo server
/// in a child process (``NIOEcho``), as a guest's worker and the host are.
enum NIOPingPong {
    struct Result {
        var roundTrips: LatencyHistogram
        /// The CPU this process (the client's side) spent per round trip, warm-up included, in µs.
        var cpuPerRoundTripUs: Double
        /// Its user-space part (``ProcessCPU/sample()``).
        var userCPUPerRoundTripUs: Double
        /// This side's context switches and read/write system calls per round trip (``ProcessCPU/counters()``).
        var contextSwitchesPerRoundTrip: Double
        var readWriteSyscallsPerRoundTrip: Double
    }

    /// Round trips before the timed ones.
    static let warmUpRoundTrips = 2_000

    /// `duration` of back-to-back round trips after ``warmUpRoundTrips``, against the echo server
    /// on `port`.
    static func measure(port: Int, tls: Bool, requestBytes: Int, replyBytes: Int, duration: Duration) async throws -> Result {
        let (cpuAtStart, userAtStart) = ProcessCPU.sample()
        let countersAtStart = ProcessCPU.counters()
        let done = MultiThreadedEventLoopGroup.singleton.next().makePromise(of: LatencyHistogram.self)
        let nanoseconds = UInt64(duration.components.seconds) * 1_000_000_000 + UInt64(duration.components.attoseconds / 1_000_000_000)
        let channel = try await BareChannel.connect(port: port, tls: tls) {
            PingPongClient(requestBytes: requestBytes, replyBytes: replyBytes, waitsForHandshake: tls, warmUp: warmUpRoundTrips, nanoseconds: nanoseconds, done: done)
        }
        defer { channel.close(promise: nil) }
        let roundTrips = try await done.futureResult.get()
        let end = ProcessCPU.sample()
        let counters = ProcessCPU.counters()
        let (cpu, user) = (Double(end.total - cpuAtStart) / 1000, Double(end.user - userAtStart) / 1000)
        let count = Double(roundTrips.totalCount) + Double(warmUpRoundTrips)
        let (switches, syscalls) = counters.per(count, since: countersAtStart)
        return Result(
            roundTrips: roundTrips, cpuPerRoundTripUs: cpu / count, userCPUPerRoundTripUs: user / count, contextSwitchesPerRoundTrip: switches,
            readWriteSyscallsPerRoundTrip: syscalls)
    }
}

/// Writes a request, reads the whole reply, records the round trip, and writes the next, on
/// its event loop, until its time is up (after `warmUp` round trips not recorded; with no
/// warm-up and no time, one round trip).
final class PingPongClient: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let request: ByteBuffer
    private let replyBytes: Int
    private let waitsForHandshake: Bool
    private let nanoseconds: UInt64
    private let done: EventLoopPromise<LatencyHistogram>
    private var histogram = LatencyHistogram.latencies()
    private var received = 0
    private var sentAt: UInt64 = 0
    private var warmUp: Int
    private var endsAt: UInt64 = 0
    private var finished = false

    init(requestBytes: Int, replyBytes: Int, waitsForHandshake: Bool, warmUp: Int, nanoseconds: UInt64, done: EventLoopPromise<LatencyHistogram>) {
        request = ByteBuffer(bytes: [UInt8](repeating: 0x17, count: requestBytes))
        self.warmUp = warmUp
        self.replyBytes = replyBytes
        self.waitsForHandshake = waitsForHandshake
        self.nanoseconds = nanoseconds
        self.done = done
    }

    func channelActive(context: ChannelHandlerContext) {
        if !waitsForHandshake { send(context) }
        context.fireChannelActive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted? = event as? TLSUserEvent { send(context) }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        received += Self.unwrapInboundIn(data).readableBytes
        guard received >= replyBytes else { return }
        received -= replyBytes
        let now = MonotonicClock.nanoseconds()
        if warmUp > 0 {
            warmUp -= 1
            if warmUp == 0 { endsAt = now + nanoseconds }
        } else {
            histogram.recordLatency(now - sentAt)
            if now >= endsAt { return finish(.success(histogram)) }
        }
        send(context)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish(.failure(error))
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(.failure(BenchFailure("the echo server closed the connection")))
        context.fireChannelInactive()
    }

    private func send(_ context: ChannelHandlerContext) {
        sentAt = MonotonicClock.nanoseconds()
        context.writeAndFlush(wrapOutboundOut(request), promise: nil)
    }

    private func finish(_ result: Result<LatencyHistogram, any Error>) {
        guard !finished else { return }
        finished = true
        done.completeWith(result)
    }
}

/// `guessnum-bench nio-echo`: the swift-nio floor's server. It prints the port it listens on,
/// then answers each `--request-bytes` read with `--reply-bytes`, until its input ends.
struct NIOEcho: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nio-echo", abstract: "The swift-nio floor's echo server (started by guessnum-bench itself).", shouldDisplay: false)

    @Option var requestBytes: Int
    @Option var replyBytes: Int
    // Not `--tls`: the benchmark command's own flag of that name would take it.
    @Flag(name: .customLong("echo-tls")) var tls = false

    func run() async throws {
        let (request, reply) = (requestBytes, replyBytes)
        // GUESSNUM_BENCH_FLOOR_REPLY_DELAY_US: an experiment's reply delay (see EchoHandler).
        let delay = ProcessInfo.processInfo.environment["GUESSNUM_BENCH_FLOOR_REPLY_DELAY_US"].flatMap(UInt64.init) ?? 0
        let server = try await BareChannel.listen(tls: tls) { EchoHandler(requestBytes: request, replyBytes: reply, replyDelayMicroseconds: delay) }
        LineChannel.emit(#"{"event":"listening","port":\#(server.localAddress?.port ?? 0)}"#)
        var commands = LineChannel.lines(from: STDIN_FILENO).makeAsyncIterator()
        _ = await commands.next()  // "quit" or end of input
        try? await server.close()
    }
}

/// Answers every `requestBytes` read with `replyBytes`.
final class EchoHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let requestBytes: Int
    private let reply: ByteBuffer
    private let pieceBytes: Int?
    private let replyDelayNanoseconds: UInt64
    private var received = 0

    /// A handler answering every `requestBytes` with `reply` (one buffer may serve every
    /// connection: writing it copies nothing); in flushed pieces of `pieceBytes` when given.
    /// With `replyDelayMicroseconds`, it works (spins) that long before each reply, as a guest
    /// works between a verdict and its next guess: an experiment on what the client's CPU per
    /// round trip does when its replies come later (its thread sleeps longer between them).
    init(requestBytes: Int, reply: ByteBuffer, pieceBytes: Int? = nil, replyDelayMicroseconds: UInt64 = 0) {
        self.requestBytes = requestBytes
        self.reply = reply
        self.pieceBytes = pieceBytes
        replyDelayNanoseconds = replyDelayMicroseconds * 1000
    }

    convenience init(requestBytes: Int, replyBytes: Int, replyDelayMicroseconds: UInt64 = 0) {
        self.init(requestBytes: requestBytes, reply: Self.reply(bytes: replyBytes), replyDelayMicroseconds: replyDelayMicroseconds)
    }

    static func reply(bytes: Int) -> ByteBuffer { ByteBuffer(bytes: [UInt8](repeating: 0x2A, count: bytes)) }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        received += Self.unwrapInboundIn(data).readableBytes
        while received >= requestBytes {
            received -= requestBytes
            if replyDelayNanoseconds > 0 {
                let until = MonotonicClock.nanoseconds() + replyDelayNanoseconds
                while MonotonicClock.nanoseconds() < until {}
            }
            guard let pieceBytes else {
                context.write(wrapOutboundOut(reply), promise: nil)
                continue
            }
            var rest = reply
            while let piece = rest.readSlice(length: min(pieceBytes, rest.readableBytes)), piece.readableBytes > 0 {
                context.writeAndFlush(wrapOutboundOut(piece), promise: nil)
            }
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.flush()
        context.fireChannelReadComplete()
    }
}
