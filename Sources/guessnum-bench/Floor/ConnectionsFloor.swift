import Foundation
import NIOCore
import NIOPosix

/// The floor of a paced run with many guests (issue 45): what TLS and the kernel cost at the
/// host's load. A bare swift-nio(-ssl) server in this process (``BareChannel``: the event-loop
/// group, library, key kind, TLS 1.3 and options of a session's link; ``FloorServer`` above it,
/// nothing of guessnum's) holds as many connections as the host had guests, from as many
/// worker processes, the probe in one of its own; each client sends a request of the guess's
/// size once a period (the probe more often), as the paced guests did, and gets a reply of the
/// verdict's size; every connection gets a frame of the host's mean broadcast size as often as
/// each guest got a broadcast. The server's CPU per request against the host's per verdict is
/// the figure; the probe's round trips are the latency floor at that load. (Its memory per
/// connection is not: the server runs where the host ran, and reuses the heap the host freed;
/// `guessnum-bench tls-memory` measures that floor.)
enum ConnectionsFloor {
    /// What the floor's run measured.
    struct Result: Codable, Sendable {
        var connections: Int
        var requestsPerS: Double
        var broadcastsPerS: Double
        /// The server's process: CPU and its user part, in seconds and per request (µs).
        var cpuSeconds: Double
        var userCPUSeconds: Double
        var cpuPerRequestUs: Double
        var userCPUPerRequestUs: Double
        var contextSwitchesPerRequest: Double
        var readWriteSyscallsPerRequest: Double
        var rttP50Us: Double?
        var rttP99Us: Double?
        var probeRttP50Us: Double?
        var probeRttP99Us: Double?
        var dropped: Int
        var late: Int
        var failed: Int
        /// The frames' sizes and the broadcast period the host's run gave.
        var requestBytes: Int
        var replyBytes: Int
        var broadcastBytes: Int
        var broadcastPeriodMs: Double

        enum CodingKeys: String, CodingKey {
            case connections, dropped, late, failed
            case requestsPerS = "requests_per_s", broadcastsPerS = "broadcasts_per_s"
            case cpuSeconds = "cpu_s", userCPUSeconds = "user_cpu_s", cpuPerRequestUs = "cpu_us_per_request"
            case userCPUPerRequestUs = "user_cpu_us_per_request", contextSwitchesPerRequest = "context_switches_per_request"
            case readWriteSyscallsPerRequest = "rw_syscalls_per_request"
            case rttP50Us = "rtt_p50_us", rttP99Us = "rtt_p99_us", probeRttP50Us = "probe_rtt_p50_us", probeRttP99Us = "probe_rtt_p99_us"
            case requestBytes = "request_bytes", replyBytes = "reply_bytes", broadcastBytes = "broadcast_bytes"
            case broadcastPeriodMs = "broadcast_period_ms"
        }
    }

    /// What the host's run gave the floor to match.
    struct Load {
        var connections: Int
        var workers: Int
        var seconds: Double
        var tls: Bool
        var requestBytes: Int
        var replyBytes: Int
        var broadcastBytes: Int
        var broadcastPeriod: Duration
        /// Whether one of the guests was a probe in a process of its own, guessing every `probePeriodMs`.
        var hasProbe: Bool
        var probePeriodMs: Int
    }

    static func measure(_ load: Load) async throws -> Result {
        let group = MultiThreadedEventLoopGroup.singleton
        let period = TimeAmount.nanoseconds(Int64(load.broadcastPeriod.components.seconds) * 1_000_000_000 + load.broadcastPeriod.components.attoseconds / 1_000_000_000)
        let server = FloorServer(
            group: group, requestBytes: load.requestBytes, replyBytes: load.replyBytes, broadcastBytes: load.broadcastBytes, period: period)
        let listener = try await BareChannel.listen(tls: load.tls) { server.handler() }
        defer { server.stop() }
        let port = listener.localAddress?.port ?? 0
        let crowd = load.connections - (load.hasProbe ? 1 : 0)
        var shares = (0..<load.workers).map { index in crowd / load.workers + (index < crowd % load.workers ? 1 : 0) }.filter { $0 > 0 }
        if load.hasProbe { shares.append(1) }
        var processes: [WorkerProcess] = []
        var first = 0
        for (index, share) in shares.enumerated() {
            let isProbe = load.hasProbe && index == shares.count - 1
            var arguments = ["--port", "\(port)", "--count", "\(share)", "--first", "\(first)", "--duration", "\(load.seconds)",
                             "--request-bytes", "\(load.requestBytes)", "--period-ms", "\(isProbe ? load.probePeriodMs : 1000)"]
            if isProbe { arguments.append("--probe") }
            if load.tls { arguments.append("--clients-tls") }
            processes.append(try WorkerProcess(subcommand: "floor-clients", arguments: arguments))
            first += share
        }
        for process in processes {
            guard let line = await process.nextLine(), line.contains(#""ready""#) else {
                for process in processes { await process.quit() }
                throw BenchFailure("a floor client ended before its connections were answered")
            }
        }
        let (cpuAtStart, userAtStart) = ProcessCPU.sample()
        let countersAtStart = ProcessCPU.counters()
        for process in processes { process.send("go") }
        var lines: [String] = []
        for process in processes {
            guard let line = await process.nextLine() else { throw BenchFailure("a floor client ended without its results") }
            lines.append(line)
        }
        let end = ProcessCPU.sample()
        let counters = ProcessCPU.counters()
        for process in processes { await process.quit() }
        try? await listener.close()
        let stats = try lines.map { line in
            guard let report = try? JSONDecoder().decode(WorkerReport.self, from: Data(line.utf8)) else {
                throw BenchFailure("a floor client ended without its results")
            }
            return report.stats
        }
        let all = WorkerStats.total(of: stats)
        let start = stats.map(\.startedAt).min() ?? 0
        let stop = stats.map(\.endedAt).max() ?? 0
        let span = stop > start ? Double(stop - start) / 1e9 : load.seconds
        let requests = Double(max(all.verdicts, 1))
        let (cpu, user) = (Double(end.total - cpuAtStart) / 1e9, Double(end.user - userAtStart) / 1e9)
        let (switches, syscalls) = counters.per(requests, since: countersAtStart)
        return Result(
            connections: load.connections, requestsPerS: Double(all.verdicts) / span, broadcastsPerS: Double(all.broadcasts) / span,
            cpuSeconds: cpu, userCPUSeconds: user, cpuPerRequestUs: cpu * 1e6 / requests, userCPUPerRequestUs: user * 1e6 / requests,
            contextSwitchesPerRequest: switches, readWriteSyscallsPerRequest: syscalls,
            rttP50Us: all.roundTrips.microseconds(atPercentile: 50), rttP99Us: all.roundTrips.microseconds(atPercentile: 99),
            probeRttP50Us: all.probeRoundTrips.microseconds(atPercentile: 50), probeRttP99Us: all.probeRoundTrips.microseconds(atPercentile: 99),
            dropped: all.dropped, late: all.late, failed: all.failedGuests,
            requestBytes: load.requestBytes, replyBytes: load.replyBytes, broadcastBytes: load.broadcastBytes,
            broadcastPeriodMs: Double(period.nanoseconds) / 1e6)
    }
}
