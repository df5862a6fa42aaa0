import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `guessnum-bench streams`: what a byte stream (issue 26) delivers over TLS 1.3 on loopback,
/// beside a raw swift-nio-ssl pipe and raw TCP (`iperf3`) in the same run, and what a stream
/// costs the game's guess→verdict round trip on the same link. A summary on standard error, one
/// JSON object on standard output (for scripts/bench).
struct StreamBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "streams", abstract: "Measure byte streams: throughput against raw TLS and iperf3, and guess latency beside a stream.")

    @Option(help: "MiB each transfer sends (the stream, the raw TLS pipe and iperf3 alike).") var mebibytes = 512
    @Option(help: "Seconds iperf3 sends for in each round.") var iperfSeconds = 2
    @Flag(help: ArgumentHelp("Profiling: the stream's rounds only, no baselines.", visibility: .hidden)) var streamOnly = false
    @Flag(help: ArgumentHelp("Profiling: the raw TLS pipe's rounds only, no stream, no iperf3.", visibility: .hidden)) var rawOnly = false
    @Option(help: "Throughput rounds; each runs the stream, the raw TLS pipe and iperf3 in turn.") var rounds = 3
    @Option(help: "Seconds each latency probe guesses.") var probeSeconds: Double = 5
    @Option(help: "Milliseconds from one guess to the next (a guess waits for the last verdict).") var intervalMs = 5
    @Option(help: "Latency rounds; each probes idle, with a stream host→guest and with one guest→host.") var probeRounds = 2
    @Option(help: "Seconds after which the benchmark gives up (its children go with it).") var timeLimit: Double = 170
    @Option(help: ArgumentHelp("Experiments: both sessions' streamWindow in KiB (default: the library's).", visibility: .hidden))
    var windowKib: Int?
    @Option(help: ArgumentHelp("Experiments: the writer's streamChunkLength in KiB (default: the library's).", visibility: .hidden))
    var chunkKib: Int?
    @Option(help: ArgumentHelp("Experiments: both sessions' maximumStreamWindow in KiB (default: the library's).", visibility: .hidden))
    var maximumWindowKib: Int?
    @Option(help: ArgumentHelp("Experiments: the latency probes' streams go no faster than this many MiB/s.", visibility: .hidden))
    var paceMibs: Double?
    @Option(help: ArgumentHelp("Experiments: the size of each write of a paced probe's stream, KiB.", visibility: .hidden))
    var paceWriteKib: Int?

    func validate() throws {
        guard (1...8192).contains(mebibytes) else { throw ValidationError("--mebibytes must be from 1 to 8192.") }
        guard (1...20).contains(rounds), (0...20).contains(probeRounds) else { throw ValidationError("--rounds and --probe-rounds must be from 1 (0 for probes) to 20.") }
        guard probeSeconds > 0, probeSeconds <= 60 else { throw ValidationError("--probe-seconds must be above 0 and at most 60.") }
        guard (1...30).contains(iperfSeconds) else { throw ValidationError("--iperf-seconds must be from 1 to 30.") }
        guard (1...1000).contains(intervalMs) else { throw ValidationError("--interval-ms must be from 1 to 1000.") }
    }

    func run() async throws {
        BenchLogging.bootstrap()
        signal(SIGPIPE, SIG_IGN)
        let limit = timeLimit
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: limit)
            FileHandle.standardError.write(Data("guessnum-bench streams: still running after \(Int(limit)) s; giving up\n".utf8))
            Glibc.exit(3)  // the workers see their input end and leave
        }
        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").first.map(String.init) ?? "?"
        let bytes = mebibytes * 1_048_576

        let tuning = StreamTuning(windowKiB: windowKib, chunkKiB: chunkKib, maximumWindowKiB: maximumWindowKib)
        let throughput = try await StreamThroughput.start(bytes: bytes, tuning: tuning)
        var streams: [StreamThroughput.Transfer] = [], pipes: [StreamThroughput.Transfer] = [], iperf: [Double] = []
        for round in 1...rounds {
            if rawOnly {
                let pipe = try await throughput.rawTLS()
                pipes.append(pipe)
                note(String(format: "round %d: raw TLS %.0f MiB/s (%.2f, %.2f ms)", round, pipe.mibPerSecond, pipe.senderCPUMillisecondsPerMiB, pipe.receiverCPUMillisecondsPerMiB))
                continue
            }
            let stream = try await throughput.session()
            streams.append(stream)
            let cpu = String(format: "CPU per MiB %.2f ms sending, %.2f ms receiving", stream.senderCPUMillisecondsPerMiB, stream.receiverCPUMillisecondsPerMiB)
            if streamOnly {
                note(String(format: "round %d: stream %.0f MiB/s (%@)", round, stream.mibPerSecond, cpu))
                continue
            }
            let pipe = try await throughput.rawTLS()
            pipes.append(pipe)
            iperf.append(try throughput.iperf(seconds: iperfSeconds))
            note(String(format: "round %d: stream %.0f MiB/s (%@), raw TLS %.0f MiB/s (%.2f, %.2f ms), iperf3 %.0f MiB/s", round,
                        stream.mibPerSecond, cpu, pipe.mibPerSecond, pipe.senderCPUMillisecondsPerMiB, pipe.receiverCPUMillisecondsPerMiB, iperf.last!))
        }
        let session = streams.map(\.mibPerSecond), tls = pipes.map(\.mibPerSecond)
        await throughput.stop()

        var probes: [StreamLatency.Probe] = []
        if probeRounds > 0 {
            let latency = try await StreamLatency.start()
            // Warm-up, not counted: the first guesses of a fresh link and game are slower.
            _ = try await latency.probe(.idle, seconds: 1, intervalMilliseconds: intervalMs)
            for _ in 0..<probeRounds {
                for phase in StreamLatency.Phase.allCases {
                    let probe = try await latency.probe(phase, seconds: probeSeconds, intervalMilliseconds: intervalMs, pace: paceMibs, writeKiB: paceWriteKib)
                    probes.append(probe)
                    note(String(format: "%@: %d guesses, p50 %.0f µs, p99 %.0f µs, max %.0f µs; stream %.0f MiB/s",
                                phase.rawValue, probe.count, probe.p50, probe.p99, probe.max, probe.streamMiBPerSecond))
                }
            }
            await latency.stop()
        }

        let (streamMedian, tlsMedian, iperfMedian) = (median(session), median(tls), median(iperf))
        var result: [String: Any] = [
            "mode": "streams", "mebibytes": mebibytes, "rounds": rounds, "write_kib": StreamWriting.writeBytes / 1024, "loadavg_1m": load,
            "window_kib": tuning.configuration.streamWindow / 1024, "maximum_window_kib": tuning.configuration.maximumStreamWindow / 1024, "chunk_kib": tuning.configuration.streamChunkLength / 1024,
            "stream_mib_s": session, "raw_tls_mib_s": tls, "iperf3_mib_s": iperf,
            "stream_cpu_ms_per_mib": streams.map { [$0.senderCPUMillisecondsPerMiB, $0.receiverCPUMillisecondsPerMiB] },
            "raw_tls_cpu_ms_per_mib": pipes.map { [$0.senderCPUMillisecondsPerMiB, $0.receiverCPUMillisecondsPerMiB] },
            "stream_median_mib_s": streamMedian, "raw_tls_median_mib_s": tlsMedian, "iperf3_median_mib_s": iperfMedian,
            "stream_vs_tls": streamOnly ? 0 : streamMedian / tlsMedian, "stream_vs_iperf3": streamOnly ? 0 : streamMedian / iperfMedian,
            "iperf3_seconds": iperfSeconds, "probe_seconds": probeSeconds, "interval_ms": intervalMs, "probes": probes.map(\.json),
        ]
        let idle = probes.filter { $0.phase == .idle }.map(\.p99)
        if !idle.isEmpty {
            for phase in [StreamLatency.Phase.hostToGuest, .guestToHost] {
                let loaded = probes.filter { $0.phase == phase }.map(\.p99)
                let key = phase == .hostToGuest ? "p99_ratio_host_to_guest" : "p99_ratio_guest_to_host"
                result[key] = median(loaded) / median(idle)
            }
        }
        note(String(format: "stream / raw TLS %.2f× (goal ≥ 0.8), stream / iperf3 %.2f× (goal ≥ 0.6)", streamMedian / tlsMedian, streamMedian / iperfMedian))
        if let a = result["p99_ratio_host_to_guest"] as? Double, let b = result["p99_ratio_guest_to_host"] as? Double {
            note(String(format: "guess p99 with a stream / idle: host→guest %.2f×, guest→host %.2f× (goal ≤ 2)", a, b))
        }
        let data = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }

    private func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    private func note(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
