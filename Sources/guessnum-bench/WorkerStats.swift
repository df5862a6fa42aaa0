import Synchronization

/// What one worker's guests measured, gathered under one lock and sent to the coordinator.
struct WorkerStats: Codable, Sendable {
    var roundTrips = LatencyHistogram.latencies()
    var probeRoundTrips = LatencyHistogram.latencies()
    /// The probe's slowest round trip (ns) and when its verdict came (system-wide monotonic clock).
    var probeSlowest: UInt64 = 0
    var probeSlowestAt: UInt64 = 0
    var connects = LatencyHistogram.latencies()
    /// Verdicts received for this guest's own guesses.
    var verdicts = 0
    /// Guesses refused with an error message (throttled, round over).
    var refused = 0
    /// Guesses never answered: outstanding at the end, or on a connection that closed.
    var dropped = 0
    /// Paced guesses skipped because the previous one had no answer yet a second later.
    var late = 0
    /// Guests that failed to connect or were closed by the host.
    var failedGuests = 0
    /// Broadcast history messages received, verdict lines in them, guesses they only counted.
    var broadcasts = 0
    var broadcastVerdicts = 0
    /// The broadcasts' payload bytes (what the connections floor sends as much of).
    var broadcastBytes = 0
    var summarisedGuesses = 0
    /// Guests welcomed, and when the last of them was (on the system-wide monotonic clock).
    var welcomed = 0
    var lastWelcomedAt: UInt64 = 0
    /// Restart runs: links that dropped, guests back (welcomed again after reconnecting), when
    /// the last came back, how many connection attempts they made, and each one's resume time
    /// (from the start of the attempt that succeeded to the welcome).
    var drops = 0
    var rejoined = 0
    var lastRejoinedAt: UInt64 = 0
    var reconnectAttempts = 0
    var resumes = LatencyHistogram.latencies()
    /// Join storms: tries again after a connection failed or closed before its welcome.
    var retries = 0
    /// When the measured phase started and ended, on the system-wide monotonic clock.
    var startedAt: UInt64 = 0
    var endedAt: UInt64 = 0
    /// Fan-out runs: broadcast counts to time (the end of the back-to-back part, then the end
    /// of each separate round), and when each was reached.
    var thresholds: [Int] = []
    var crossings: [UInt64] = []

    /// Fan-out runs: the coordinator's broadcasts received (the game's own are not counted).
    var fanOutFrames = 0

    /// Several workers' stats as one: histograms merged, counts added (the times and the
    /// fan-out's thresholds are each worker's own and stay out).
    static func total(of parts: [WorkerStats]) -> WorkerStats {
        var all = WorkerStats()
        for part in parts {
            all.roundTrips.add(part.roundTrips)
            all.probeRoundTrips.add(part.probeRoundTrips)
            all.connects.add(part.connects)
            all.verdicts += part.verdicts
            all.refused += part.refused
            all.dropped += part.dropped
            all.late += part.late
            all.failedGuests += part.failedGuests
            all.broadcasts += part.broadcasts
            all.broadcastBytes += part.broadcastBytes
            all.fanOutFrames += part.fanOutFrames
            all.broadcastVerdicts += part.broadcastVerdicts
            all.summarisedGuesses += part.summarisedGuesses
        }
        return all
    }

    /// Counts one more of the coordinator's broadcasts, received at `now`, timing the
    /// thresholds it reaches.
    mutating func countFanOutFrame(at now: UInt64) {
        fanOutFrames += 1
        while crossings.count < thresholds.count, fanOutFrames >= thresholds[crossings.count] { crossings.append(now) }
    }
}

/// The worker's shared ``WorkerStats``.
final class WorkerRecorder: Sendable {
    let stats = Mutex(WorkerStats())
    private let measuring = Atomic(false)

    /// Whether round trips and broadcasts count now (only during the measured phase).
    var isMeasuring: Bool { measuring.load(ordering: .relaxed) }
    func setMeasuring(_ value: Bool) { measuring.store(value, ordering: .relaxed) }

    func update(_ body: (inout WorkerStats) -> Void) {
        stats.withLock { body(&$0) }
    }
}
