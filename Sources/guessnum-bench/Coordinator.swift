import Foundation
import GuessnumGame
import Multipeer
import MultipeerPOSIX

/// Runs one benchmark: the baseline, the host, the workers, and the arithmetic.
struct Coordinator {
    let guests: Int
    let mode: BenchMode
    let seconds: Double
    let workers: Int
    let tickMilliseconds: Int?
    let fanOutFrames: Int
    let baselineSeconds: Double
    let machine: MachineInfo
    /// A hostile client attacking the host during the run, if any.
    var attack: BenchAttack?
    /// Whether the host and the guests run TLS (each guest with a key of its own).
    var tls = false
    /// Whether the host keeps its game in a store.
    var keepsStore = false
    /// The crowd's workers' scheduling priority (nice), when lowered: they stand for other
    /// machines, and here take the host's cores. The probe's worker keeps the normal priority.
    var crowdNiceness: Int?
    /// Paced runs: whether the connections floor is measured after the host (``ConnectionsFloor``).
    var measuresFloor = false

    /// Restart runs: when in the measured phase the host crashes, and how long until the new
    /// one listens (the time a person takes to start it again is not the point here).
    var crashAfter: Duration { .milliseconds(Int64(seconds * 300)) }
    static let restartPause: Duration = .milliseconds(500)

    /// Fan-out runs send this many broadcasts to each guest back to back (about
    /// `--fanout-frames` in all, 200,000 unless told)…
    var fanOutRounds: Int { max(10, fanOutFrames / guests) }
    /// …then this many one at a time, each after the previous one has surely arrived: one
    /// broadcast as a tick sends it, with nothing queued to coalesce with.
    let separateRounds = 20
    var separateGap: Duration { .microseconds(max(30_000, Int64(guests) * 30)) }

    func run() async throws -> BenchResult {
        let guessFrame = GuestWire.guess(Int64(BenchGame.rangeSize / 2))
        let verdictFrame = Self.sampleVerdictFrame()
        var baseline: RawPingPong.Result?
        if mode != .fanout {
            let (request, reply) = (guessFrame.bytes.count, verdictFrame.bytes.count)
            let echo = try WorkerProcess(subcommand: "raw-echo", arguments: ["--request-bytes", "\(request)", "--reply-bytes", "\(reply)"])
            guard let line = await echo.nextLine(), let listening = try? JSONDecoder().decode(Listening.self, from: Data(line.utf8)) else {
                throw BenchFailure("the raw echo server did not start")
            }
            let duration = Duration.milliseconds(Int64(baselineSeconds * 1000))
            baseline = try await onOwnThread {
                try RawPingPong.measure(port: listening.port, requestBytes: request, replyBytes: reply, duration: duration)
            }
            await echo.quit()
        }
        var floors: (plain: NIOPingPong.Result, tls: NIOPingPong.Result)?
        if mode == .closed {
            let (request, reply) = (guessFrame.bytes.count, verdictFrame.bytes.count)
            floors = (try await Self.nioFloor(tls: false, request: request, reply: reply, seconds: baselineSeconds),
                      try await Self.nioFloor(tls: true, request: request, reply: reply, seconds: baselineSeconds))
        }
        // Under attack the host keeps the product's 100 seats, which the attacker may go for. Under
        // attack and in a storm (whose guests come from addresses of their own) it keeps every
        // limit the product has.
        var host = try await BenchHost.start(
            mode: mode, maximumPlayers: attack == nil ? guests : max(guests, 100), tickMilliseconds: tickMilliseconds,
            productLimits: attack != nil || mode == .storm,
            tls: tls, keepsStore: keepsStore)
        let rssIdle = ProcessMemory.residentKB()
        let heapIdle = ProcessMemory.heapKB()
        var attacker: WorkerProcess?
        if let attack {
            let process = try WorkerProcess(subcommand: "attack", arguments: ["--port", "\(host.port)", "--kind", attack.rawValue, "--duration", "\(seconds + 2)"])
            guard let line = await process.nextLine(), line.contains(#""ready""#) else { throw BenchFailure("the attacker did not start") }
            attacker = process
        }

        let broadcast = Self.sampleBroadcast()
        var raw: (listener: RawSocket, port: Int)?
        if mode == .fanout { raw = try RawSocket.listen() }
        // From 100 guests on, one of them is a probe in a process of its own, as a player on
        // their own machine would be: its round trips measure the host, not the crowd's workers.
        let probe = (guests >= 100 && mode != .fanout) || mode == .storm
        let crowd = probe ? guests - 1 : guests
        var shares = (0..<workers).map { index in crowd / workers + (index < crowd % workers ? 1 : 0) }.filter { $0 > 0 }
        if probe { shares.append(1) }
        var processes: [WorkerProcess] = []
        var first = 0
        for (index, share) in shares.enumerated() {
            var arguments = ["--port", "\(host.port)", "--count", "\(share)", "--first", "\(first)",
                             "--pacing", mode.rawValue, "--duration", "\(seconds)"]
            if probe, index == shares.count - 1 { arguments.append("--probe") }
            if probe, index == shares.count - 1 { arguments += ["--probe-period-ms", "\(Self.probePeriodMs)"] }
            if tls { arguments.append("--guests-tls") }
            // Under attack the host keeps its 20 guesses a second per guest: guess 16 times a second.
            if attack != nil { arguments += ["--period-ms", "60"] }
            if let raw {
                arguments += ["--raw-port", "\(raw.port)", "--rounds", "\(fanOutRounds)", "--frame-bytes", "\(broadcast.frame.bytes.count)",
                              "--separate-rounds", "\(separateRounds)"]
            }
            let isProbe = probe && index == shares.count - 1
            processes.append(try WorkerProcess(arguments: arguments, niceness: isProbe ? nil : crowdNiceness))
            first += share
        }

        var rawTiming: FanOutTiming?
        if let raw {
            let (rounds, separate, gap, frame, guests) = (fanOutRounds, separateRounds, separateGap, broadcast.frame.bytes, guests)
            let starts = try await onOwnThread {
                try RawFanOut.write(frame, rounds: rounds, separateRounds: separate, gap: gap, to: guests, listener: raw.listener)
            }
            var crossings: [[UInt64]] = []
            for process in processes {
                guard let line = await process.nextLine(), let report = try? JSONDecoder().decode(RawFanOutReport.self, from: Data(line.utf8)) else {
                    throw BenchFailure("a worker ended during the raw fan-out")
                }
                crossings.append(report.crossings)
            }
            rawTiming = FanOutTiming(guests: guests, rounds: rounds, starts: starts, crossings: crossings)
        }

        for process in processes {
            guard let line = await process.nextLine(), line.contains(#""ready""#) else { throw BenchFailure("a worker ended before its guests connected") }
        }
        var rssConnected = ProcessMemory.residentKB()
        var heapConnected = ProcessMemory.heapKB()
        let peak = PeakSampler()
        let sampling = Task { await peak.sample(every: .milliseconds(100)) }
        var stormStart: UInt64?
        let (hostCPUAtStart, hostUserAtStart) = ProcessCPU.sample()
        let hostCountersAtStart = ProcessCPU.counters()
        let hostThreadsAtStart = SchedulerDelay.threads()
        let crowdPIDs = processes.dropLast(probe ? 1 : 0).map(\.pid)
        let crowdCPUAtStart = crowdPIDs.map(SchedulerDelay.cpuNanoseconds(ofProcess:))
        if mode == .storm, let probeProcess = processes.last {
            // The probe guesses for a second alone, then the crowd connects all at once.
            probeProcess.send("go")
            try await Task.sleep(for: .seconds(1))
            stormStart = MonotonicClock.nanoseconds()
            for process in processes.dropLast() { process.send("go") }
        } else {
            for process in processes { process.send("go") }
        }
        var restartedAt: UInt64?
        if mode == .restart {
            try await Task.sleep(for: crashAfter)
            host = try await host.crashAndResume(after: Self.restartPause)
            restartedAt = MonotonicClock.nanoseconds()
        }
        var broadcastStarts: [UInt64] = []
        if mode == .fanout {
            broadcastStarts.append(MonotonicClock.nanoseconds())
            for _ in 0..<fanOutRounds { _ = try host.session.sendToAll(broadcast.payload, messageType: HistoryBatch.messageType) }
            for process in processes {
                guard let line = await process.nextLine(), line.contains("bulk-done") else { throw BenchFailure("a worker ended during the fan-out") }
            }
            for _ in 0..<separateRounds {
                try await Task.sleep(for: separateGap)
                broadcastStarts.append(MonotonicClock.nanoseconds())
                _ = try host.session.sendToAll(broadcast.payload, messageType: HistoryBatch.messageType)
            }
        }
        // Every report is read before any is decoded: a storm's crowd reports while the probe
        // still guesses, and decoding its histograms would take the host's cores meanwhile.
        var lines: [String] = []
        for process in processes {
            guard let line = await process.nextLine() else { throw BenchFailure("a worker ended without its results") }
            lines.append(line)
        }
        let stats = try lines.map { line in
            guard let report = try? JSONDecoder().decode(WorkerReport.self, from: Data(line.utf8)) else {
                throw BenchFailure("a worker ended without its results")
            }
            return report.stats
        }
        let hostEnd = ProcessCPU.sample()
        let hostCounters = ProcessCPU.counters()
        let (hostCPU, hostUser) = (hostEnd.total - hostCPUAtStart, hostEnd.user - hostUserAtStart)
        let hostWaits = SchedulerDelay.waited(from: hostThreadsAtStart, to: SchedulerDelay.threads())
        // A worker that ended meanwhile (its figures gone with it) counts nothing.
        let crowdCPU = zip(crowdPIDs, crowdCPUAtStart).reduce(UInt64(0)) { total, worker in
            guard let then = worker.1, let now = SchedulerDelay.cpuNanoseconds(ofProcess: worker.0), now >= then else { return total }
            return total + (now - then)
        }
        if mode == .storm { (rssConnected, heapConnected) = (ProcessMemory.residentKB(), ProcessMemory.heapKB()) }
        var attackReport: AttackReport?
        if let attacker {
            if let line = await attacker.nextLine() { attackReport = try? JSONDecoder().decode(AttackReport.self, from: Data(line.utf8)) }
            await attacker.quit()
        }
        sampling.cancel()
        let rssPeak = max(await peak.peak, ProcessMemory.residentKB())
        for process in processes { await process.quit() }
        await host.stop()

        let sessionTiming = mode == .fanout
            ? FanOutTiming(guests: guests, rounds: fanOutRounds, starts: broadcastStarts, crossings: stats.map(\.crossings)) : nil
        var result = summarise(stats, baseline: baseline, fanOut: sessionTiming.map { ($0, rawTiming) },
                               rss: (rssIdle, rssConnected, rssPeak))
        result.attack = attackReport
        result.heapInUsePerGuestKb = Double(heapConnected.inUse - heapIdle.inUse) / Double(guests)
        result.heapFreePerGuestKb = Double(heapConnected.free - heapIdle.free) / Double(guests)
        result.tls = tls
        let verdicts = stats.reduce(0) { $0 + $1.verdicts }
        if verdicts > 0 {
            result.hostCPUPerVerdictUs = Double(hostCPU) / 1000 / Double(verdicts)
            result.hostUserCPUPerVerdictUs = Double(hostUser) / 1000 / Double(verdicts)
            (result.hostContextSwitchesPerVerdict, result.hostReadWriteSyscallsPerVerdict) = hostCounters.per(Double(verdicts), since: hostCountersAtStart)
        }
        result.hostCPUSeconds = Double(hostCPU) / 1e9
        result.hostRunQueueWaitSeconds = Double(hostWaits.nanoseconds) / 1e9
        result.hostRunQueueWaitPerRunUs = hostWaits.timesRun > 0 ? Double(hostWaits.nanoseconds) / 1000 / Double(hostWaits.timesRun) : nil
        result.crowdCPUSeconds = Double(crowdCPU) / 1e9
        if let floors {
            result.nioEchoRttP50Us = floors.plain.roundTrips.microseconds(atPercentile: 50)
            result.nioTLSEchoRttP50Us = floors.tls.roundTrips.microseconds(atPercentile: 50)
            result.nioEchoCPUPerRoundTripUs = floors.plain.cpuPerRoundTripUs
            result.nioTLSEchoCPUPerRoundTripUs = floors.tls.cpuPerRoundTripUs
            result.nioEchoUserCPUPerRoundTripUs = floors.plain.userCPUPerRoundTripUs
            result.nioTLSEchoUserCPUPerRoundTripUs = floors.tls.userCPUPerRoundTripUs
            let floorSide = tls ? floors.tls : floors.plain
            (result.floorContextSwitchesPerRoundTrip, result.floorReadWriteSyscallsPerRoundTrip) =
                (floorSide.contextSwitchesPerRoundTrip, floorSide.readWriteSyscallsPerRoundTrip)
            let floor = tls ? result.nioTLSEchoRttP50Us : result.nioEchoRttP50Us
            result.rttP50OverFloor = result.rttP50Us.flatMap { ours in floor.map { ours / $0 } }
        }
        result.store = keepsStore
        if let restartedAt {
            var resumes = LatencyHistogram.latencies()
            for part in stats { resumes.add(part.resumes) }
            result.restartDrops = stats.map(\.drops).reduce(0, +)
            result.restartRejoined = stats.map(\.rejoined).reduce(0, +)
            result.restartAttempts = stats.map(\.reconnectAttempts).reduce(0, +)
            let last = stats.map(\.lastRejoinedAt).max() ?? 0
            result.restartAllBackS = last > restartedAt ? Double(last - restartedAt) / 1e9 : nil
            result.resumeP50Us = resumes.microseconds(atPercentile: 50)
            result.resumeP99Us = resumes.microseconds(atPercentile: 99)
            result.resumeP50Ratio = result.resumeP50Us.flatMap { resume in result.connectP50Us.map { resume / $0 } }
        }
        if measuresFloor { try await addFloor(to: &result, stats: stats, hasProbe: probe) }
        if let stormStart {
            let crowd = stats.dropLast()
            result.stormWelcomed = crowd.map(\.welcomed).reduce(0, +)
            result.stormRetries = crowd.map(\.retries).reduce(0, +)
            let last = crowd.map(\.lastWelcomedAt).max() ?? 0
            result.stormSeconds = last > stormStart ? Double(last - stormStart) / 1e9 : nil
        }
        return result
    }

    private func summarise(
        _ stats: [WorkerStats], baseline: RawPingPong.Result?, fanOut: (session: FanOutTiming, raw: FanOutTiming?)?,
        rss: (idle: Int, connected: Int, peak: Int)
    ) -> BenchResult {
        let all = WorkerStats.total(of: stats)
        let start = stats.map(\.startedAt).min() ?? 0
        let end = stats.map(\.endedAt).max() ?? 0
        let span = end > start ? Double(end - start) / 1e9 : seconds
        let rtt50 = all.roundTrips.microseconds(atPercentile: 50)
        let rtt99 = all.roundTrips.microseconds(atPercentile: 99)
        let base50 = baseline?.roundTrips.microseconds(atPercentile: 50)
        let base99 = baseline?.roundTrips.microseconds(atPercentile: 99)
        let fanout = fanOut?.session.backToBackPerSecond ?? Double(all.broadcastVerdicts) / span
        let rawFanout = fanOut?.raw?.backToBackPerSecond
        let roundFanout = fanOut?.session.separateRoundPerSecond
        let rawRoundFanout = fanOut?.raw?.separateRoundPerSecond
        return BenchResult(
            guests: guests, mode: mode, seconds: seconds, workers: stats.count,
            roundTrips: all.roundTrips.totalCount,
            rttP50Us: rtt50, rttP99Us: rtt99,
            rttP999Us: all.roundTrips.microseconds(atPercentile: 99.9),
            rttMaxUs: all.roundTrips.totalCount == 0 ? nil : Double(all.roundTrips.max) / 1000,
            probeRttP50Us: all.probeRoundTrips.microseconds(atPercentile: 50),
            probeRttP99Us: all.probeRoundTrips.microseconds(atPercentile: 99),
            probeRoundTrips: Int(all.probeRoundTrips.totalCount),
            probeRttMaxUs: all.probeRoundTrips.totalCount == 0 ? nil : Double(all.probeRoundTrips.max) / 1000,
            probeSlowestAtS: stats.map(\.probeSlowest).max().flatMap { slowest in
                stats.first { $0.probeSlowest == slowest && slowest > 0 }.map { Double($0.probeSlowestAt &- start) / 1e9 }
            },
            verdictsPerS: Double(all.verdicts) / span,
            fanoutPerS: fanout,
            summarisedPerS: Double(all.summarisedGuesses) / span,
            broadcastsPerS: Double(all.broadcasts) / span,
            connectP50Us: all.connects.microseconds(atPercentile: 50),
            connectP99Us: all.connects.microseconds(atPercentile: 99),
            hostRssIdleKb: rss.idle, hostRssConnectedKb: rss.connected, hostRssKb: rss.peak,
            rssPerGuestKb: Double(rss.connected - rss.idle) / Double(guests),
            dropped: all.dropped + (mode == .fanout ? max(0, guests * (fanOutRounds + separateRounds) - all.fanOutFrames) : 0),
            refused: all.refused, late: all.late, failedGuests: all.failedGuests,
            baselineRttP50Us: base50, baselineRttP99Us: base99,
            rttP50Ratio: rtt50.flatMap { value in base50.map { value / $0 } },
            rttP99Ratio: rtt99.flatMap { value in base99.map { value / $0 } },
            rawFanoutPerS: rawFanout,
            fanoutRatio: rawFanout.map { fanout / $0 },
            roundFanoutPerS: roundFanout,
            rawRoundFanoutPerS: rawRoundFanout,
            roundFanoutRatio: roundFanout.flatMap { ours in rawRoundFanout.map { ours / $0 } },
            machine: machine
        )
    }

    /// The swift-nio floor: `seconds` of ping-pong with an echo server in a child process.
    static func nioFloor(tls: Bool, request: Int, reply: Int, seconds: Double) async throws -> NIOPingPong.Result {
        let echo = try WorkerProcess(
            subcommand: "nio-echo", arguments: ["--request-bytes", "\(request)", "--reply-bytes", "\(reply)"] + (tls ? ["--echo-tls"] : []))
        guard let line = await echo.nextLine(), let listening = try? JSONDecoder().decode(Listening.self, from: Data(line.utf8)) else {
            throw BenchFailure("the swift-nio echo server did not start")
        }
        do {
            let result = try await NIOPingPong.measure(
                port: listening.port, tls: tls, requestBytes: request, replyBytes: reply, duration: .milliseconds(Int64(seconds * 1000)))
            await echo.quit()
            return result
        } catch {
            await echo.quit()
            throw error
        }
    }

    /// A verdict frame as the host sends one, for the baseline's reply size.
    static func sampleVerdictFrame() -> EncodedFrame {
        let line = sampleLine()
        let payload = (try? JSONEncoder().encode(line)) ?? Data()
        return FrameCodec.encode(.data(messageType: JudgedGuess.messageType, payload: payload))
    }

    /// A one-verdict history batch, the smallest broadcast (the hardest case for fan-out: the
    /// cost is per write, not per byte).
    static func sampleBroadcast() -> (payload: Data, frame: EncodedFrame) {
        let payload = (try? JSONEncoder().encode(HistoryBatch(items: [.verdict(sampleLine())]))) ?? Data()
        return (payload, FrameCodec.encode(.data(messageType: HistoryBatch.messageType, payload: payload)))
    }

    private static func sampleLine() -> JudgedGuess {
        let player = PlayerRef(id: UUID(), name: GuestWire.fanOutPlayerName)
        return JudgedGuess(sequence: 123_456, round: 1, judgement: Judgement(player: player, guess: 500_000_000, verdict: .tooLow))
    }

    /// How often the probe guesses during a join storm (milliseconds): as often as the game allows
    /// one player (20 a second), with room to spare.
    static let probePeriodMs = 60
}

/// The raw echo server's first word: its port.
private struct Listening: Decodable {
    var port: Int
}

/// When a fan-out's broadcasts were sent and when each part had reached every guest.
struct FanOutTiming {
    let guests: Int
    let rounds: Int
    /// The back-to-back part's start, then each separate round's.
    let starts: [UInt64]
    /// Per worker: when the back-to-back part, then each separate round, had fully arrived.
    let crossings: [[UInt64]]

    private func arrival(_ index: Int) -> UInt64? {
        let times = crossings.compactMap { $0.indices.contains(index) ? $0[index] : nil }
        return times.count == crossings.count ? times.max() : nil
    }

    /// Frames delivered per second while broadcasting back to back.
    var backToBackPerSecond: Double? {
        guard let end = arrival(0), let start = starts.first, end > start else { return nil }
        return Double(guests * rounds) / (Double(end - start) / 1e9)
    }

    /// The median, over the separate rounds, of frames delivered per second within a round
    /// (guests divided by the time from sending to the last guest's arrival).
    var separateRoundPerSecond: Double? {
        let rates = starts.indices.dropFirst().compactMap { index -> Double? in
            guard let end = arrival(index), end > starts[index] else { return nil }
            return Double(guests) / (Double(end - starts[index]) / 1e9)
        }.sorted()
        return rates.isEmpty ? nil : rates[rates.count / 2]
    }
}

/// The largest resident set size seen while sampling.
actor PeakSampler {
    private(set) var peak = 0
    func sample(every interval: Duration) async {
        while !Task.isCancelled {
            peak = max(peak, ProcessMemory.residentKB())
            try? await Task.sleep(for: interval)
        }
    }
}

/// The benchmark could not complete; the sentence says why.
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
