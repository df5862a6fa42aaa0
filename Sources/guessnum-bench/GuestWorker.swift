import ArgumentParser
import Foundation
import Multipeer
import MultipeerNIO
import NIOCore
import NIOPosix
import Rooms

/// `guessnum-bench worker`: a process of simulated guests, driven by the coordinator over
/// its standard input and output (one JSON object per line).
///
/// It connects its guests (a bounded number at a time), reports `ready`, starts guessing on
/// `go`, reports its ``WorkerStats`` when the run ends, and leaves on `quit` or end of input.
struct GuestWorker: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Simulated guests for one benchmark run (started by guessnum-bench itself).",
        shouldDisplay: false
    )

    @Option(help: "The host's port on 127.0.0.1.") var port: Int
    @Option(name: .customLong("count"), help: "How many guests this worker runs.") var guests: Int
    @Option(help: "The first guest's number, for names.") var first = 0
    @Option(name: .customLong("pacing"), help: "closed, paced or fanout.") var mode: BenchMode
    @Option(name: .customLong("duration"), help: "Seconds to guess for.") var seconds: Double
    @Option(help: "Milliseconds between a paced guest's guesses.") var periodMs = 1000
    @Flag(help: "Make the first guest a probe that guesses every --probe-period-ms.") var probe = false
    @Option(help: "Milliseconds between the probe's guesses.") var probePeriodMs = 200
    // Not `--tls`: the benchmark command's own flag of that name would take it.
    @Flag(name: .customLong("guests-tls"), help: "Connect over TLS, each guest with a key of its own.") var tls = false
    @Option(help: "Fan-out runs: the raw baseline's port.") var rawPort: Int?
    @Option(help: "Fan-out runs: broadcasts each guest receives.") var rounds = 0
    @Option(help: "Fan-out runs: the broadcast frame's size in bytes.") var frameBytes = 0
    @Option(help: "Fan-out runs: broadcasts sent one at a time after the back-to-back ones.") var separateRounds = 0

    static let connectsInFlight = 128
    static let heartbeatQuiet: UInt64 = 1_000_000_000
    static let heartbeatGroups = 10

    func run() async throws {
        BenchLogging.bootstrap()
        FileLimit.raise(to: guests + 256)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let transport = TCPTransport(group: group)
        let recorder = WorkerRecorder()
        let endpoint = try Endpoint(host: "127.0.0.1", port: port)
        let pacing: SimulatedGuest.Pacing = mode == .closed ? .closedLoop : .paced
        // A storm's crowd stands for as many machines: each guest its own address of 127.0.0.0/8,
        // so that the host's limits per address are the product's.
        let ownAddresses = mode == .storm && !probe
        let crowd: [SimulatedGuest] = try (0..<guests).map { index in
            let isProbe = probe && index == 0
            let key = PeerKey.generate()
            let source = ownAddresses ? Self.loopbackAddress(of: first + index) : nil
            let ownTransport = tls || source != nil
            return SimulatedGuest(
                peer: try key.peer(displayName: isProbe ? "probe" : "guest \(first + index)"),
                transport: ownTransport
                    ? TCPTransport(group: group, sourceHost: source, credentials: tls ? try TLSCredentials(key: key) : nil) : transport,
                pacing: isProbe ? .paced : pacing, isProbe: isProbe,
                seed: UInt64(first + index) &* 0x9E37_79B9 &+ 1, recorder: recorder, reconnectsTo: mode == .restart ? endpoint : nil)
        }
        // Each guest checks every 250 ms whether it has been quiet for a second, as a session's
        // tick does — in ten groups a 25 ms apart, as players' ticks are not in step: one timer
        // for all made a storm's crowd send its heartbeats in bursts of hundreds.
        let heartbeats = (0..<Self.heartbeatGroups).map { group in
            loop.scheduleRepeatedTask(initialDelay: .milliseconds(250 + Int64(group) * 25), delay: .milliseconds(250)) { _ in
                let now = MonotonicClock.nanoseconds()
                for index in stride(from: group, to: crowd.count, by: Self.heartbeatGroups) {
                    crowd[index].heartbeatIfQuiet(now: now, quietNanoseconds: Self.heartbeatQuiet)
                }
            }
        }
        if mode == .fanout, let rawPort {
            try await readRawFanOut(port: rawPort, transport: transport)
        }
        if mode == .storm, !probe {
            try await storm(crowd, to: endpoint, transport: transport, recorder: recorder)
            for timer in heartbeats { timer.cancel() }
            for guest in crowd { guest.leave() }
            try? await Task.sleep(for: .milliseconds(200))
            try? await group.shutdownGracefully()
            return
        }
        await connect(crowd, to: endpoint, transport: transport, recorder: recorder)
        let welcomed = crowd.filter(\.isWelcomed).count
        if mode == .fanout {
            // Count from the first broadcast on: the coordinator starts right after `go`.
            let wanted = thresholds(unit: 1)
            recorder.update { $0.thresholds = wanted }
            recorder.setMeasuring(true)
        }
        LineChannel.emit(#"{"event":"ready","welcomed":\#(welcomed)}"#)

        var commands = LineChannel.lines(from: STDIN_FILENO).makeAsyncIterator()
        guard await commands.next() == "go" else { return }
        if mode == .fanout {
            try await receiveBroadcasts(recorder: recorder)
        } else {
            try await measure(crowd, loop: loop, recorder: recorder)
        }
        let stats = recorder.stats.withLock { $0 }
        LineChannel.emit(String(decoding: try JSONEncoder().encode(WorkerReport(stats: stats)), as: UTF8.self))

        _ = await commands.next()  // "quit" or end of input
        for timer in heartbeats { timer.cancel() }
        for guest in crowd { guest.leave() }
        try? await Task.sleep(for: .milliseconds(200))
        try? await group.shutdownGracefully()
    }

    /// A join storm's crowd: says `ready` at once, and on `go` connects every guest at the same
    /// moment, reports when the last was welcomed, and stays connected until `quit`.
    private func storm(_ crowd: [SimulatedGuest], to endpoint: Endpoint, transport: TCPTransport, recorder: WorkerRecorder) async throws {
        LineChannel.emit(#"{"event":"ready","welcomed":0}"#)
        var commands = LineChannel.lines(from: STDIN_FILENO).makeAsyncIterator()
        guard await commands.next() == "go" else { return }
        recorder.update { $0.startedAt = MonotonicClock.nanoseconds() }
        await connect(crowd, to: endpoint, transport: transport, recorder: recorder, inFlight: crowd.count, retrying: true)
        recorder.update { $0.endedAt = $0.lastWelcomedAt }
        let stats = recorder.stats.withLock { $0 }
        LineChannel.emit(String(decoding: try JSONEncoder().encode(WorkerReport(stats: stats)), as: UTF8.self))
        _ = await commands.next()  // "quit" or end of input
    }

    /// Connects every guest, `inFlight` at a time, and waits for their welcomes. With
    /// `retrying`, a guest whose connection fails or closes before its welcome tries again,
    /// spaced as a player's `guessnum join` reconnects (``ReconnectBackoff``), for up to 30 s;
    /// each try again is counted.
    private func connect(
        _ crowd: [SimulatedGuest], to endpoint: Endpoint, transport: TCPTransport, recorder: WorkerRecorder, inFlight: Int = connectsInFlight,
        retrying: Bool = false
    ) async {
        await withTaskGroup(of: Void.self) { group in
            var next = 0
            func add() {
                let guest = crowd[next]
                next += 1
                group.addTask {
                    guest.connecting()
                    let deadline = ContinuousClock.now + .seconds(30)
                    var backoff = ReconnectBackoff()
                    while true {
                        do {
                            _ = try await guest.transport.connect(to: endpoint, options: LinkOptions(), timeout: .seconds(30), handler: guest)
                            // Wait for the welcome (bounded), so the number in flight stays bounded too.
                            while !guest.isWelcomed, !guest.isClosed, ContinuousClock.now < deadline {
                                try? await Task.sleep(for: .milliseconds(5))
                            }
                            if guest.isWelcomed || !retrying { return }
                        } catch {
                            guard retrying else {
                                recorder.update { $0.failedGuests += 1 }
                                return
                            }
                        }
                        let delay = backoff.nextDelay()
                        guard ContinuousClock.now + delay < deadline else {
                            recorder.update { $0.failedGuests += 1 }
                            return
                        }
                        recorder.update { $0.retries += 1 }
                        try? await Task.sleep(for: delay)
                        guest.tryingAgain()
                    }
                }
            }
            while next < min(inFlight, crowd.count) { add() }
            while await group.next() != nil {
                if next < crowd.count { add() }
            }
        }
    }

    /// The address of 127.0.0.0/8 that guest `index` of a storm connects from: 127.1.0.1 and on,
    /// 250 to a /24, none ending in .0 or .255.
    static func loopbackAddress(of index: Int) -> String {
        "127.\(1 + index / 62_500).\(index / 250 % 250).\(1 + index % 250)"
    }

    /// The measured phase: everyone guesses for `seconds`, then answers in flight get two
    /// seconds to arrive; whatever is still unanswered counts as dropped. In a restart run,
    /// guests still coming back are waited for too.
    private func measure(_ crowd: [SimulatedGuest], loop: any EventLoop, recorder: WorkerRecorder) async throws {
        recorder.setMeasuring(true)
        recorder.update { $0.startedAt = MonotonicClock.nanoseconds() }
        var timers: [RepeatedTask] = []
        var random = SplitMix64(seed: UInt64(first) + 7)
        for guest in crowd {
            if guest.isProbe || guest.pacing == .paced {
                let period = guest.isProbe ? probePeriodMs : periodMs
                let offset = Int64(random.next() % UInt64(period * 1000))
                timers.append(loop.scheduleRepeatedTask(initialDelay: .microseconds(offset), delay: .milliseconds(Int64(period))) { _ in
                    guest.pacedTick()
                })
            }
            guest.startGuessing()
        }
        try await Task.sleep(for: .seconds(seconds))
        for timer in timers { timer.cancel() }
        for guest in crowd { guest.stopGuessing() }
        recorder.update { $0.endedAt = MonotonicClock.nanoseconds() }
        let deadline = ContinuousClock.now + .seconds(2)
        while crowd.contains(where: \.isWaiting), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        recorder.setMeasuring(false)
        // A restart run's report waits for every guest to be back (or for its tries to have
        // had half a minute): how long that took is the figure; a fixed run length would
        // turn a slow machine's late return into "never came back".
        let backBy = ContinuousClock.now + .seconds(30)
        while crowd.contains(where: \.isAway), ContinuousClock.now < backBy {
            try await Task.sleep(for: .milliseconds(10))
        }
        let dropped = crowd.filter { $0.finish() }.count
        recorder.update { $0.dropped += dropped }
    }
}

extension GuestWorker {
    /// Counts to time in a fan-out run: all back-to-back rounds, then each separate round.
    private func thresholds(unit: Int) -> [Int] {
        [guests * rounds * unit] + (1...max(1, separateRounds)).prefix(separateRounds).map { guests * (rounds + $0) * unit }
    }

    /// The raw fan-out baseline's receiving side: sinks that count bytes; reports when the
    /// back-to-back part and each separate round had fully arrived.
    private func readRawFanOut(port: Int, transport: TCPTransport) async throws {
        let recorder = WorkerRecorder()
        let wanted = thresholds(unit: 1)
        recorder.update { $0.thresholds = wanted }
        recorder.setMeasuring(true)
        let endpoint = try Endpoint(host: "127.0.0.1", port: port)
        var connections: [any Connection] = []
        for _ in 0..<guests {
            connections.append(try await transport.connect(to: endpoint, options: LinkOptions(), timeout: .seconds(30), handler: RawFrameSink(recorder: recorder)))
        }
        let deadline = ContinuousClock.now + .seconds(120)
        while recorder.stats.withLock({ $0.crossings.count }) < wanted.count, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(1))
        }
        let report = RawFanOutReport(crossings: recorder.stats.withLock { $0.crossings })
        LineChannel.emit(String(decoding: try JSONEncoder().encode(report), as: UTF8.self))
        for connection in connections { connection.close() }
    }

    /// The session fan-out: counts broadcasts until every guest has all of them (or two
    /// minutes passed), saying when the back-to-back part is in so the separate rounds can start.
    private func receiveBroadcasts(recorder: WorkerRecorder) async throws {
        let wanted = thresholds(unit: 1)
        let deadline = ContinuousClock.now + .seconds(120)
        var saidBulkDone = false
        while ContinuousClock.now < deadline {
            let crossed = recorder.stats.withLock { $0.crossings.count }
            if crossed >= 1, !saidBulkDone {
                LineChannel.emit(#"{"event":"bulk-done"}"#)
                saidBulkDone = true
            }
            if crossed == wanted.count { break }
            try await Task.sleep(for: .milliseconds(1))
        }
        if !saidBulkDone { LineChannel.emit(#"{"event":"bulk-done"}"#) }
        recorder.setMeasuring(false)
    }
}

/// A worker's timings of the raw fan-out.
struct RawFanOutReport: Codable {
    var event = "raw-done"
    var crossings: [UInt64]
}

/// The worker's last word to the coordinator.
struct WorkerReport: Codable {
    var event = "result"
    var stats: WorkerStats
}
