import Foundation
import GuessnumGame
import Multipeer

/// Runs one benchmark: the baseline, the host, the workers, and the arithmetic.
struct Coordinator {
    let guests: Int
    let mode: BenchMode
    let seconds: Double
    let workers: Int
    let tickMilliseconds: Int?
    let machine: MachineInfo

    /// Fan-out runs send this many broadcasts to each guest (about 200,000 frames in all).
    var fanOutRounds: Int { max(10, 200_000 / guests) }

    func run() async throws -> BenchResult {
        let guessFrame = GuestWire.guess(Int64(BenchGame.rangeSize / 2))
        let verdictFrame = Self.sampleVerdictFrame()
        let baseline = mode == .fanout ? nil : try await Self.offPool {
            try RawPingPong.measure(requestBytes: guessFrame.bytes.count, replyBytes: verdictFrame.bytes.count,
                                    duration: .milliseconds(Int64(min(seconds, 3) * 1000)))
        }
        let host = try await BenchHost.start(mode: mode, maximumPlayers: guests, tickMilliseconds: tickMilliseconds)
        let rssIdle = ProcessMemory.residentKB()

        let broadcast = Self.sampleBroadcast()
        var raw: (listener: RawSocket, port: Int)?
        if mode == .fanout { raw = try RawSocket.listen() }
        // From 100 guests on, one of them is a probe in a process of its own, as a player on
        // their own machine would be: its round trips measure the host, not the crowd's workers.
        let probe = guests >= 100 && mode != .fanout
        let crowd = probe ? guests - 1 : guests
        var shares = (0..<workers).map { index in crowd / workers + (index < crowd % workers ? 1 : 0) }.filter { $0 > 0 }
        if probe { shares.append(1) }
        var processes: [WorkerProcess] = []
        var first = 0
        for (index, share) in shares.enumerated() {
            var arguments = ["--port", "\(host.port)", "--count", "\(share)", "--first", "\(first)",
                             "--pacing", mode.rawValue, "--duration", "\(seconds)"]
            if probe, index == shares.count - 1 { arguments.append("--probe") }
            if let raw {
                arguments += ["--raw-port", "\(raw.port)", "--rounds", "\(fanOutRounds)", "--frame-bytes", "\(broadcast.frame.bytes.count)"]
            }
            processes.append(try WorkerProcess(arguments: arguments))
            first += share
        }

        var rawFanOutPerSecond: Double?
        if let raw {
            let rounds = fanOutRounds
            let frame = broadcast.frame.bytes
            let guests = guests
            let start = try await Self.offPool {
                try RawFanOut.write(frame, rounds: rounds, to: guests, listener: raw.listener, accepted: {})
            }
            var done: UInt64 = 0
            for process in processes {
                guard let line = await process.nextLine(), let event = try? JSONDecoder().decode(RawDone.self, from: Data(line.utf8)) else {
                    throw BenchFailure("a worker ended during the raw fan-out")
                }
                done = max(done, event.at)
            }
            rawFanOutPerSecond = Double(guests * rounds) / (Double(done - start) / 1e9)
        }

        for process in processes {
            guard let line = await process.nextLine(), line.contains(#""ready""#) else { throw BenchFailure("a worker ended before its guests connected") }
        }
        let rssConnected = ProcessMemory.residentKB()
        let peak = PeakSampler()
        let sampling = Task { await peak.sample(every: .milliseconds(100)) }
        for process in processes { process.send("go") }
        var broadcastStart: UInt64 = 0
        if mode == .fanout {
            broadcastStart = MonotonicClock.nanoseconds()
            for _ in 0..<fanOutRounds { _ = try host.session.sendToAll(broadcast.payload, messageType: HistoryBatch.messageType) }
        }
        var stats: [WorkerStats] = []
        for process in processes {
            guard let line = await process.nextLine(), let report = try? JSONDecoder().decode(WorkerReport.self, from: Data(line.utf8)) else {
                throw BenchFailure("a worker ended without its results")
            }
            stats.append(report.stats)
        }
        sampling.cancel()
        let rssPeak = max(await peak.peak, ProcessMemory.residentKB())
        for process in processes { await process.quit() }
        await host.stop()

        if mode == .fanout { for index in stats.indices { stats[index].startedAt = broadcastStart } }
        return summarise(stats, baseline: baseline, rawFanOutPerSecond: rawFanOutPerSecond,
                         rss: (rssIdle, rssConnected, rssPeak))
    }

    private func summarise(
        _ stats: [WorkerStats], baseline: RawPingPong.Result?, rawFanOutPerSecond: Double?, rss: (idle: Int, connected: Int, peak: Int)
    ) -> BenchResult {
        var all = WorkerStats()
        for part in stats {
            all.roundTrips.add(part.roundTrips)
            all.probeRoundTrips.add(part.probeRoundTrips)
            all.connects.add(part.connects)
            all.verdicts += part.verdicts
            all.refused += part.refused
            all.dropped += part.dropped
            all.late += part.late
            all.failedGuests += part.failedGuests
            all.broadcasts += part.broadcasts
            all.broadcastVerdicts += part.broadcastVerdicts
            all.summarisedGuesses += part.summarisedGuesses
        }
        let start = stats.map(\.startedAt).min() ?? 0
        let end = stats.map(\.endedAt).max() ?? 0
        let span = end > start ? Double(end - start) / 1e9 : seconds
        let rtt50 = all.roundTrips.microseconds(atPercentile: 50)
        let rtt99 = all.roundTrips.microseconds(atPercentile: 99)
        let base50 = baseline?.roundTrips.microseconds(atPercentile: 50)
        let base99 = baseline?.roundTrips.microseconds(atPercentile: 99)
        let fanout = mode == .fanout ? Double(all.broadcasts) / span : Double(all.broadcastVerdicts) / span
        return BenchResult(
            guests: guests, mode: mode, seconds: seconds, workers: stats.count,
            roundTrips: all.roundTrips.totalCount,
            rttP50Us: rtt50, rttP99Us: rtt99,
            rttP999Us: all.roundTrips.microseconds(atPercentile: 99.9),
            rttMaxUs: all.roundTrips.totalCount == 0 ? nil : Double(all.roundTrips.max) / 1000,
            probeRttP50Us: all.probeRoundTrips.microseconds(atPercentile: 50),
            probeRttP99Us: all.probeRoundTrips.microseconds(atPercentile: 99),
            verdictsPerS: Double(all.verdicts) / span,
            fanoutPerS: fanout,
            summarisedPerS: Double(all.summarisedGuesses) / span,
            broadcastsPerS: Double(all.broadcasts) / span,
            connectP50Us: all.connects.microseconds(atPercentile: 50),
            connectP99Us: all.connects.microseconds(atPercentile: 99),
            hostRssIdleKb: rss.idle, hostRssConnectedKb: rss.connected, hostRssKb: rss.peak,
            rssPerGuestKb: Double(rss.connected - rss.idle) / Double(guests),
            dropped: all.dropped + (mode == .fanout ? max(0, guests * fanOutRounds - all.broadcasts) : 0),
            refused: all.refused, late: all.late, failedGuests: all.failedGuests,
            baselineRttP50Us: base50, baselineRttP99Us: base99,
            rttP50Ratio: rtt50.flatMap { value in base50.map { value / $0 } },
            rttP99Ratio: rtt99.flatMap { value in base99.map { value / $0 } },
            rawFanoutPerS: rawFanOutPerSecond,
            fanoutRatio: mode == .fanout ? rawFanOutPerSecond.map { fanout / $0 } : nil,
            machine: machine
        )
    }

    /// A verdict frame as the host sends one, for the baseline's reply size.
    static func sampleVerdictFrame() -> EncodedFrame {
        let line = sampleLine()
        let payload = (try? JSONEncoder().encode(line)) ?? Data()
        return FrameCodec.encode(.data(messageType: GuessLine.messageType, payload: payload))
    }

    /// A one-verdict history batch, the smallest broadcast (the hardest case for fan-out: the
    /// cost is per write, not per byte).
    static func sampleBroadcast() -> (payload: Data, frame: EncodedFrame) {
        let payload = (try? JSONEncoder().encode(HistoryBatch(items: [.verdict(sampleLine())]))) ?? Data()
        return (payload, FrameCodec.encode(.data(messageType: HistoryBatch.messageType, payload: payload)))
    }

    private static func sampleLine() -> GuessLine {
        let player = PlayerRef(id: UUID(), name: "guest 1234")
        return GuessLine(sequence: 123_456, round: 1, judgement: Judgement(player: player, guess: 500_000_000, verdict: .tooLow))
    }

    /// Runs blocking work on a thread of its own, off Swift's cooperative pool.
    static func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }
}

/// The worker's report that the raw fan-out's last byte arrived.
private struct RawDone: Decodable {
    var at: UInt64
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
