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
    @Option(help: "Throughput rounds; each runs the stream, the raw TLS pipe and iperf3 in turn.") var rounds = 3
    @Option(help: "Seconds each latency probe guesses.") var probeSeconds: Double = 5
    @Option(help: "Milliseconds from one guess to the next (a guess waits for the last verdict).") var intervalMs = 5
    @Option(help: "Latency rounds; each probes idle, with a stream host→guest and with one guest→host.") var probeRounds = 1
    @Option(help: "Seconds after which the benchmark gives up (its children go with it).") var timeLimit: Double = 170

    func validate() throws {
        guard (1...8192).contains(mebibytes) else { throw ValidationError("--mebibytes must be from 1 to 8192.") }
        guard (1...20).contains(rounds), (0...20).contains(probeRounds) else { throw ValidationError("--rounds and --probe-rounds must be from 1 (0 for probes) to 20.") }
        guard probeSeconds > 0, probeSeconds <= 60 else { throw ValidationError("--probe-seconds must be above 0 and at most 60.") }
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

        let throughput = try await StreamThroughput.start(bytes: bytes)
        var session: [Double] = [], tls: [Double] = [], iperf: [Double] = []
        for round in 1...rounds {
            session.append(try await throughput.session())
            tls.append(try await throughput.rawTLS())
            iperf.append(try throughput.iperf())
            note(String(format: "round %d: stream %.0f MiB/s, raw TLS %.0f MiB/s, iperf3 %.0f MiB/s", round, session.last!, tls.last!, iperf.last!))
        }
        await throughput.stop()

        var probes: [StreamLatency.Probe] = []
        if probeRounds > 0 {
            let latency = try await StreamLatency.start()
            for _ in 0..<probeRounds {
                for phase in StreamLatency.Phase.allCases {
                    let probe = try await latency.probe(phase, seconds: probeSeconds, intervalMilliseconds: intervalMs)
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
            "stream_mib_s": session, "raw_tls_mib_s": tls, "iperf3_mib_s": iperf,
            "stream_median_mib_s": streamMedian, "raw_tls_median_mib_s": tlsMedian, "iperf3_median_mib_s": iperfMedian,
            "stream_vs_tls": streamMedian / tlsMedian, "stream_vs_iperf3": streamMedian / iperfMedian,
            "probe_seconds": probeSeconds, "interval_ms": intervalMs, "probes": probes.map(\.json),
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
