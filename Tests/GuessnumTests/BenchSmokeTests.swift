import Foundation
import MultipeerTestSupport
import Testing

/// A few seconds of `guessnum-bench`, so the benchmark never rots: a real host, real guests in
/// a worker process, real TCP on loopback, and the JSON keys BENCHMARKS.md relies on.
@Suite("guessnum-bench smoke run", .timeLimit(.minutes(2)))
struct BenchSmokeTests {
    static let keys = [
        "guests", "mode", "rtt_p50_us", "rtt_p99_us", "rtt_p999_us", "verdicts_per_s", "fanout_per_s",
        "connect_p50_us", "host_rss_kb", "rss_per_guest_kb", "dropped", "baseline_rtt_p50_us",
    ]

    func run(_ arguments: [String]) async throws -> [String: Any] {
        let process = try ChildProcess(try builtExecutable(named: "guessnum-bench"), arguments + ["--json"])
        process.closeInput()
        let status = await process.exitStatus(within: .seconds(60))
        #expect(status == 0, "output: \(process.text)")
        let line = try #require(process.text.split(separator: "\n").last { $0.hasPrefix("{") }, "output: \(process.text)")
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    // Paced and short: the suite runs other timed tests beside this one, so the smoke run must
    // not load both cores the way a real benchmark does.
    @Test("Paced: every guess of four guests is answered, and the report has every key")
    func paced() async throws {
        let result = try await run(["--guests", "4", "--mode", "paced", "--seconds", "2", "--baseline-seconds", "0.2"])
        for key in Self.keys { #expect(result[key] != nil, "missing \(key)") }
        #expect(result["guests"] as? Int == 4)
        #expect(result["mode"] as? String == "paced")
        #expect(result["dropped"] as? Int == 0)
        #expect(result["failed_guests"] as? Int == 0)
        #expect((result["round_trips"] as? Int ?? 0) >= 4, "four guests guessing once a second for two seconds")
        let p50 = try #require(result["rtt_p50_us"] as? Double)
        let baseline = try #require(result["baseline_rtt_p50_us"] as? Double)
        #expect(p50 > 0 && baseline > 0 && p50 <= (result["rtt_p99_us"] as? Double ?? 0))
        #expect((result["fanout_per_s"] as? Double ?? 0) > 0, "guests read each other's verdicts")
        #expect((result["connect_p50_us"] as? Double ?? 0) > 0)
    }

    @Test("Closed loop: the swift-nio floors, plaintext and over swift-nio-ssl, are measured beside raw TCP, and the guess is set against its own")
    func closedFloors() async throws {
        // Half a second of one guest and a fifth of a second of each floor: a short load.
        let result = try await run(["--guests", "1", "--mode", "closed", "--seconds", "0.5", "--baseline-seconds", "0.2", "--tls"])
        let plain = try #require(result["nio_echo_rtt_p50_us"] as? Double)
        let tls = try #require(result["nio_tls_echo_rtt_p50_us"] as? Double)
        let guess = try #require(result["rtt_p50_us"] as? Double)
        #expect(plain > 0 && tls > 0)
        let over = try #require(result["rtt_p50_over_floor"] as? Double)
        #expect(abs(over - guess / tls) < 1e-9, "a TLS run is set against the TLS floor")
        #expect((result["host_cpu_us_per_verdict"] as? Double ?? 0) > 0, "the host's CPU per verdict")
        #expect((result["nio_tls_echo_cpu_us_per_rtt"] as? Double ?? 0) > 0, "the floor's CPU per round trip")
        let user = try #require(result["host_user_cpu_us_per_verdict"] as? Double)
        #expect(user > 0 && user <= (result["host_cpu_us_per_verdict"] as? Double ?? 0), "user-space CPU is part of the whole")
        #expect((result["nio_tls_echo_user_cpu_us_per_rtt"] as? Double ?? 0) > 0)
        // Each verdict is read and written on the host's socket, each echo on the floor's.
        #expect((result["host_rw_syscalls_per_verdict"] as? Double ?? 0) > 0 && (result["floor_rw_syscalls_per_rtt"] as? Double ?? 0) > 0, "\(result)")
        #expect(result["host_context_switches_per_verdict"] is Double && result["floor_context_switches_per_rtt"] is Double, "\(result)")
    }

    @Test("The memory floor: a server's memory per connection with swift-nio alone, plaintext and over TLS, is reported")
    func memoryFloor() async throws {
        let process = try ChildProcess(try builtExecutable(named: "guessnum-bench"), ["tls-memory", "--connections", "50"])
        process.closeInput()
        #expect(await process.exitStatus(within: .seconds(60)) == 0, "output: \(process.text)")
        let line = try #require(process.text.split(separator: "\n").last { $0.hasPrefix("{") }, "output: \(process.text)")
        let result = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(result["connections"] as? Int == 50)
        #expect(result["plain_kb_per_connection"] is Double && result["tls_kb_per_connection"] is Double, "\(result)")
        #expect((result["tls_heap_in_use_kb_per_connection"] as? Double ?? 0) > 0, "\(result)")
    }

    @Test("Fan-out: every broadcast reaches every guest, measured against raw socket writes")
    func fanOut() async throws {
        let result = try await run(["--guests", "5", "--mode", "fanout", "--seconds", "1", "--fanout-frames", "500"])
        #expect(result["dropped"] as? Int == 0)
        #expect((result["fanout_per_s"] as? Double ?? 0) > 0)
        #expect((result["raw_fanout_per_s"] as? Double ?? 0) > 0)
        #expect((result["fanout_ratio"] as? Double ?? 0) > 0)
        #expect((result["round_fanout_per_s"] as? Double ?? 0) > 0, "the broadcasts sent one at a time were timed too")
        #expect((result["raw_round_fanout_per_s"] as? Double ?? 0) > 0)
    }

    @Test("Restart: the host crashes partway, a new one resumes the game from its store on the same port, and every guest comes back by itself")
    func restart() async throws {
        let result = try await run(["--guests", "6", "--mode", "restart", "--seconds", "4", "--baseline-seconds", "0.2"])
        #expect(result["store"] as? Bool == true)
        #expect(result["restart_drops"] as? Int == 6, "every link dropped with the host")
        #expect(result["restart_rejoined"] as? Int == 6, "and every guest came back")
        // How soon they were back is the benchmark's figure (BENCHMARKS.md), not this test's:
        // the worker waits for every guest, so a slow machine is late here, never wrong.
        let back = try #require(result["restart_all_back_s"] as? Double, "\(result)")
        #expect(back > 0)
        #expect((result["resume_p50_us"] as? Double ?? 0) > 0 && (result["resume_p50_ratio"] as? Double ?? 0) > 0)
        #expect(result["failed_guests"] as? Int == 0)
    }
}
