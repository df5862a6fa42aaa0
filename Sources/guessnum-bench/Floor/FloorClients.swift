import ArgumentParser
import Foundation
import MultipeerNIO
import NIOCore
import NIOPosix
import Rooms
import Synchronization

/// `guessnum-bench floor-clients`: the connections floor's clients — `--count` bare connections
/// (``BareChannel``, TLS with `--clients-tls`), each sending a request every `--period-ms` at
/// its own phase as a paced guest guesses, timing each reply, counting broadcasts. Driven as a
/// guest worker is: `ready` when all are connected, `go` to start, its ``WorkerStats`` at the
/// end, `quit` to leave.
struct FloorClients: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "floor-clients", abstract: "The connections floor's clients.", shouldDisplay: false)

    @Option var port: Int
    @Option var count: Int
    @Option var first = 0
    @Option(name: .customLong("duration")) var seconds: Double
    @Option var periodMs = 1000
    @Option var requestBytes: Int
    @Flag(help: "These clients' round trips are the probe's.") var probe = false
    // Not `--tls`: the benchmark command's own flag of that name would take it.
    @Flag(name: .customLong("clients-tls")) var tls = false

    func run() async throws {
        _ = FileLimit.raise(to: count * 2 + 1024)
        let recorder = WorkerRecorder()
        let outstanding = FloorOutstanding()
        let request = FloorFrame.make(0, bytes: requestBytes)
        var channels: [any Channel] = []
        for start in stride(from: 0, to: count, by: 100) {
            var connected: [EventLoopFuture<Void>] = []
            for _ in start..<min(start + 100, count) {
                let ready = MultiThreadedEventLoopGroup.singleton.any().makePromise(of: Void.self)
                let isProbe = probe
                channels.append(try await BareChannel.connect(port: port, tls: tls) {
                    FloorClientHandler(request: request, recorder: recorder, outstanding: outstanding, isProbe: isProbe, ready: ready)
                })
                connected.append(ready.futureResult)
            }
            for ready in connected { try await ready.get() }
        }
        LineChannel.emit(#"{"event":"ready"}"#)
        var commands = LineChannel.lines(from: STDIN_FILENO).makeAsyncIterator()
        guard await commands.next() == "go" else { return }

        recorder.setMeasuring(true)
        recorder.update { $0.startedAt = MonotonicClock.nanoseconds() }
        var random = SplitMix64(seed: UInt64(first) + 11)
        for channel in channels {
            let offset = TimeAmount.microseconds(Int64(random.next() % UInt64(periodMs * 1000)))
            channel.pipeline.fireUserInboundEventTriggered(FloorClientHandler.Go(offset: offset, period: .milliseconds(Int64(periodMs))))
        }
        try await Task.sleep(for: .seconds(seconds))
        for channel in channels { channel.pipeline.fireUserInboundEventTriggered(FloorClientHandler.Stop()) }
        recorder.update { $0.endedAt = MonotonicClock.nanoseconds() }
        // Answers in flight get two seconds to arrive; what is still unanswered is dropped.
        let deadline = ContinuousClock.now + .seconds(2)
        while outstanding.count > 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        recorder.setMeasuring(false)
        let dropped = outstanding.count
        recorder.update { $0.dropped += dropped }
        let report = try JSONEncoder().encode(WorkerReport(stats: recorder.stats.withLock { $0 }))
        LineChannel.emit(String(decoding: report, as: UTF8.self))
        _ = await commands.next()
        for channel in channels { channel.close(promise: nil) }
    }
}

/// The requests of a worker's clients still waiting for their replies.
final class FloorOutstanding: Sendable {
    private let value = Atomic(0)
    var count: Int { value.load(ordering: .relaxed) }
    func add(_ delta: Int) { value.add(delta, ordering: .relaxed) }
}

/// One client of the floor: after ``Go``, a request per period unless the last is unanswered
/// (then it is late), each reply timed; broadcasts counted; ``Stop`` ends the requests.
final class FloorClientHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Start sending, after `offset`, every `period`.
    struct Go: Sendable {
        let offset: TimeAmount
        let period: TimeAmount
    }

    /// Stop sending.
    struct Stop: Sendable {}

    private let request: ByteBuffer
    private let recorder: WorkerRecorder
    private let outstanding: FloorOutstanding
    private let isProbe: Bool
    /// Succeeded at the first reply (the TLS handshake done, the server answering).
    private var ready: EventLoopPromise<Void>?
    private var pending = ByteBuffer()
    private var sentAt: UInt64?
    private var timer: RepeatedTask?

    init(request: ByteBuffer, recorder: WorkerRecorder, outstanding: FloorOutstanding, isProbe: Bool, ready: EventLoopPromise<Void>) {
        self.request = request
        self.recorder = recorder
        self.outstanding = outstanding
        self.isProbe = isProbe
        self.ready = ready
    }

    func channelActive(context: ChannelHandlerContext) {
        send(context)
        context.fireChannelActive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let go = event as? Go {
            let handler = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            timer = context.eventLoop.scheduleRepeatedTask(initialDelay: go.offset, delay: go.period) { _ in
                let (client, context) = handler.value
                client.tick(context)
            }
        } else if event is Stop {
            timer?.cancel()
            timer = nil
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = Self.unwrapInboundIn(data)
        pending.writeBuffer(&bytes)
        FloorFrame.take(from: &pending) { kind in
            if kind == FloorFrame.reply { replied() } else if recorder.isMeasuring { recorder.update { $0.broadcasts += 1 } }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        ready?.fail(BenchFailure("the floor's server closed a connection"))
        ready = nil
        if sentAt != nil { outstanding.add(-1) }
        recorder.update { $0.failedGuests += 1 }
        context.fireChannelInactive()
    }

    private func tick(_ context: ChannelHandlerContext) {
        guard sentAt == nil else { return recorder.update { $0.late += 1 } }
        send(context)
    }

    private func send(_ context: ChannelHandlerContext) {
        sentAt = MonotonicClock.nanoseconds()
        if ready == nil { outstanding.add(1) }
        context.writeAndFlush(wrapOutboundOut(request), promise: nil)
    }

    private func replied() {
        guard let sent = sentAt else { return }
        sentAt = nil
        if let ready {
            self.ready = nil
            return ready.succeed()
        }
        outstanding.add(-1)
        guard recorder.isMeasuring else { return }
        let now = MonotonicClock.nanoseconds()
        let latency = now - sent
        recorder.update { stats in
            stats.verdicts += 1
            if isProbe {
                stats.probeRoundTrips.recordLatency(latency)
                if latency > stats.probeSlowest { (stats.probeSlowest, stats.probeSlowestAt) = (latency, now) }
            } else {
                stats.roundTrips.recordLatency(latency)
            }
        }
    }
}
