import Foundation

/// One run's results, printed as a table or (with `--json`) as one JSON object whose keys the
/// results file and BENCHMARKS.md use.
struct BenchResult: Codable, Sendable {
    var guests: Int
    var mode: BenchMode
    var seconds: Double
    var workers: Int
    var roundTrips: UInt64
    var rttP50Us: Double?
    var rttP99Us: Double?
    var rttP999Us: Double?
    var rttMaxUs: Double?
    var probeRttP50Us: Double?
    var probeRttP99Us: Double?
    /// The probe's round trips (its p99 is the second slowest of 166 in a 10 s run: one stall
    /// can decide it), its slowest, and when that one ended, in seconds from the start.
    var probeRoundTrips: Int?
    var probeRttMaxUs: Double?
    var probeSlowestAtS: Double?
    var verdictsPerS: Double
    var fanoutPerS: Double
    var summarisedPerS: Double
    var broadcastsPerS: Double
    var connectP50Us: Double?
    var connectP99Us: Double?
    var hostRssIdleKb: Int
    var hostRssConnectedKb: Int
    var hostRssKb: Int
    var rssPerGuestKb: Double
    var dropped: Int
    var refused: Int
    var late: Int
    var failedGuests: Int
    var baselineRttP50Us: Double?
    var baselineRttP99Us: Double?
    var rttP50Ratio: Double?
    var rttP99Ratio: Double?
    var rawFanoutPerS: Double?
    var fanoutRatio: Double?
    var roundFanoutPerS: Double?
    var rawRoundFanoutPerS: Double?
    var roundFanoutRatio: Double?
    var machine: MachineInfo
    /// What the attacker did, when the run was under `--attack`.
    var attack: AttackReport? = nil
    /// Whether the run was over TLS.
    var tls: Bool? = nil
    /// What the heap added per guest by the time they were all connected, in KiB (glibc's
    /// `mallinfo2`): bytes handed out, and bytes the allocator holds free (freed, not given
    /// back). Handed-out pages never written to are not resident: a buffer allocated large and
    /// used little counts whole here and by its touched pages in ``rssPerGuestKb``.
    /// From `go` to the workers' reports: the host's CPU time; how long its threads were ready
    /// to run but waited for a core, in all and per time run (the kernel's `schedstat`); and the
    /// crowd's workers' CPU time (the probe's excluded) — what the load generator took of the
    /// cores the host shares with it.
    var hostCPUSeconds: Double? = nil
    var hostRunQueueWaitSeconds: Double? = nil
    var hostRunQueueWaitPerRunUs: Double? = nil
    var crowdCPUSeconds: Double? = nil
    var heapInUsePerGuestKb: Double? = nil
    var heapFreePerGuestKb: Double? = nil
    /// Join storms: the guests of the crowd welcomed, and how long from the moment they all
    /// started connecting until the last was welcomed.
    var stormWelcomed: Int? = nil
    var stormSeconds: Double? = nil
    /// Join storms: the crowd's tries again (a connection that failed or closed before its welcome).
    var stormRetries: Int? = nil
    /// Whether the host kept its game in a store (SQLite, one transaction per tick).
    var store: Bool? = nil
    /// Restart runs: links that dropped when the host crashed, guests back, how long from the
    /// new host listening until the last was back, connection attempts made, and the resume
    /// time (from the start of the attempt that succeeded to the welcome) against
    /// ``connectP50Us``, the fresh join's connect time of the same run.
    var restartDrops: Int? = nil
    var restartRejoined: Int? = nil
    var restartAllBackS: Double? = nil
    var restartAttempts: Int? = nil
    var resumeP50Us: Double? = nil
    var resumeP99Us: Double? = nil
    var resumeP50Ratio: Double? = nil
    /// Closed-loop runs: the swift-nio floors measured in the same run (``NIOPingPong``), a
    /// plaintext echo and one over swift-nio-ssl, and the guess's round trip against the floor
    /// of its own kind (TLS runs against the TLS echo).
    var nioEchoRttP50Us: Double? = nil
    var nioTLSEchoRttP50Us: Double? = nil
    var rttP50OverFloor: Double? = nil
    /// The CPU the host's process spent per verdict while the guests played (µs), and the
    /// floors' client side per round trip (one side of the exchange each). Both move with the
    /// machine's wake-up latency too (an idle core's wake-up is charged to the process it
    /// wakes); their difference is the figure to compare.
    var hostCPUPerVerdictUs: Double? = nil
    var nioEchoCPUPerRoundTripUs: Double? = nil
    var nioTLSEchoCPUPerRoundTripUs: Double? = nil
    /// The user-space parts of the three: the kernel's share (waking threads, above all) moves
    /// with the machine's idle state, the code's own does not.
    var hostUserCPUPerVerdictUs: Double? = nil
    var nioEchoUserCPUPerRoundTripUs: Double? = nil
    var nioTLSEchoUserCPUPerRoundTripUs: Double? = nil
    /// What a faster machine does not shrink: the host's context switches and read/write system
    /// calls per verdict, and the same floor's (TLS when the run is) per round trip, one side.
    var hostContextSwitchesPerVerdict: Double? = nil
    var hostReadWriteSyscallsPerVerdict: Double? = nil
    var floorContextSwitchesPerRoundTrip: Double? = nil
    var floorReadWriteSyscallsPerRoundTrip: Double? = nil
    /// Paced runs with `--floor`: the connections floor measured after the host, at the host's
    /// load (``ConnectionsFloor``), and the host's CPU per verdict against the floor's per
    /// request, whole and user part.
    var connectionsFloor: ConnectionsFloor.Result? = nil
    var hostCPUOverFloor: Double? = nil
    var hostUserCPUOverFloor: Double? = nil

    enum CodingKeys: String, CodingKey {
        case guests, mode, seconds, workers, machine, dropped, refused, late, attack, tls
        case hostCPUSeconds = "host_cpu_s", hostRunQueueWaitSeconds = "host_runqueue_wait_s"
        case hostRunQueueWaitPerRunUs = "host_runqueue_wait_per_run_us", crowdCPUSeconds = "crowd_cpu_s"
        case heapInUsePerGuestKb = "heap_in_use_per_guest_kb", heapFreePerGuestKb = "heap_free_per_guest_kb"
        case stormWelcomed = "storm_welcomed", stormSeconds = "storm_s", stormRetries = "storm_retries", store
        case restartDrops = "restart_drops", restartRejoined = "restart_rejoined", restartAllBackS = "restart_all_back_s"
        case restartAttempts = "restart_attempts", resumeP50Us = "resume_p50_us", resumeP99Us = "resume_p99_us"
        case resumeP50Ratio = "resume_p50_ratio"
        case nioEchoRttP50Us = "nio_echo_rtt_p50_us", nioTLSEchoRttP50Us = "nio_tls_echo_rtt_p50_us", rttP50OverFloor = "rtt_p50_over_floor"
        case hostCPUPerVerdictUs = "host_cpu_us_per_verdict", nioEchoCPUPerRoundTripUs = "nio_echo_cpu_us_per_rtt"
        case nioTLSEchoCPUPerRoundTripUs = "nio_tls_echo_cpu_us_per_rtt"
        case hostUserCPUPerVerdictUs = "host_user_cpu_us_per_verdict", nioEchoUserCPUPerRoundTripUs = "nio_echo_user_cpu_us_per_rtt"
        case nioTLSEchoUserCPUPerRoundTripUs = "nio_tls_echo_user_cpu_us_per_rtt"
        case hostContextSwitchesPerVerdict = "host_context_switches_per_verdict", hostReadWriteSyscallsPerVerdict = "host_rw_syscalls_per_verdict"
        case floorContextSwitchesPerRoundTrip = "floor_context_switches_per_rtt", floorReadWriteSyscallsPerRoundTrip = "floor_rw_syscalls_per_rtt"
        case connectionsFloor = "connections_floor", hostCPUOverFloor = "host_cpu_over_floor", hostUserCPUOverFloor = "host_user_cpu_over_floor"
        case roundTrips = "round_trips"
        case rttP50Us = "rtt_p50_us", rttP99Us = "rtt_p99_us", rttP999Us = "rtt_p999_us", rttMaxUs = "rtt_max_us"
        case probeRttP50Us = "probe_rtt_p50_us", probeRttP99Us = "probe_rtt_p99_us"
        case probeRoundTrips = "probe_round_trips", probeRttMaxUs = "probe_rtt_max_us", probeSlowestAtS = "probe_slowest_at_s"
        case verdictsPerS = "verdicts_per_s", fanoutPerS = "fanout_per_s", summarisedPerS = "summarised_per_s"
        case broadcastsPerS = "broadcasts_per_s"
        case connectP50Us = "connect_p50_us", connectP99Us = "connect_p99_us"
        case hostRssIdleKb = "host_rss_idle_kb", hostRssConnectedKb = "host_rss_connected_kb", hostRssKb = "host_rss_kb"
        case rssPerGuestKb = "rss_per_guest_kb"
        case failedGuests = "failed_guests"
        case baselineRttP50Us = "baseline_rtt_p50_us", baselineRttP99Us = "baseline_rtt_p99_us"
        case rttP50Ratio = "rtt_p50_ratio", rttP99Ratio = "rtt_p99_ratio"
        case rawFanoutPerS = "raw_fanout_per_s", fanoutRatio = "fanout_ratio"
        case roundFanoutPerS = "round_fanout_per_s", rawRoundFanoutPerS = "raw_round_fanout_per_s", roundFanoutRatio = "round_fanout_ratio"
    }

    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? String(decoding: encoder.encode(self), as: UTF8.self)) ?? "{}"
    }

    /// A few lines for a person.
    var text: String {
        func us(_ value: Double?) -> String { value.map { String(format: "%.1f µs", $0) } ?? "–" }
        func ratio(_ value: Double?) -> String { value.map { String(format: "%.2f×", $0) } ?? "–" }
        var lines = [
            "guessnum-bench: \(guests) guests, \(mode.rawValue)\(tls == true ? " over TLS" : "")\(store == true ? ", host store on" : ""), \(seconds) s, \(workers) worker process(es)",
            "machine: \(machine.summary)",
        ]
        if mode == .fanout {
            lines.append(String(format: "fan-out, back to back: %.0f frames/s delivered; raw socket writes: %.0f/s; ratio %@",
                                fanoutPerS, rawFanoutPerS ?? 0, ratio(fanoutRatio)))
            lines.append(String(format: "fan-out, one broadcast at a time: %.0f frames/s delivered; raw socket writes: %.0f/s; ratio %@",
                                roundFanoutPerS ?? 0, rawRoundFanoutPerS ?? 0, ratio(roundFanoutRatio)))
        } else {
            lines += [
                "round trip guess→verdict: p50 \(us(rttP50Us)), p99 \(us(rttP99Us)), p99.9 \(us(rttP999Us)), max \(us(rttMaxUs)) (\(roundTrips) round trips)",
                "raw TCP ping-pong, same sizes: p50 \(us(baselineRttP50Us)), p99 \(us(baselineRttP99Us)); ratio p50 \(ratio(rttP50Ratio)), p99 \(ratio(rttP99Ratio))",
                String(format: "verdicts: %.0f/s; broadcast verdict lines delivered: %.0f/s; summarised: %.0f/s; broadcasts read: %.0f/s",
                       verdictsPerS, fanoutPerS, summarisedPerS, broadcastsPerS),
            ]
            if let nioEchoRttP50Us, let nioTLSEchoRttP50Us {
                lines.append("swift-nio echo, same sizes: p50 \(us(nioEchoRttP50Us)); over swift-nio-ssl: p50 \(us(nioTLSEchoRttP50Us)); guess against its floor: p50 \(ratio(rttP50OverFloor))")
                lines.append("CPU per round trip, one side: the host \(us(hostCPUPerVerdictUs)) a verdict; the swift-nio echo's client \(us(nioEchoCPUPerRoundTripUs)), over swift-nio-ssl \(us(nioTLSEchoCPUPerRoundTripUs))")
                if let hostContextSwitchesPerVerdict, let hostReadWriteSyscallsPerVerdict, let floorContextSwitchesPerRoundTrip, let floorReadWriteSyscallsPerRoundTrip {
                    lines.append(String(
                        format: "per round trip, one side: the host %.2f context switches and %.2f read/write system calls a verdict; the floor's client %.2f and %.2f",
                        hostContextSwitchesPerVerdict, hostReadWriteSyscallsPerVerdict, floorContextSwitchesPerRoundTrip, floorReadWriteSyscallsPerRoundTrip))
                }
            }
            if let floor = connectionsFloor {
                lines.append(String(
                    format: "connections floor (%d bare connections, %.0f requests/s, a %d-byte broadcast every %.0f ms): CPU %.2f s (user %.2f), %.1f µs a request (user %.1f); "
                        + "%.2f context switches, %.2f read/write system calls a request; probe p99 %@; dropped %d, late %d",
                    floor.connections, floor.requestsPerS, floor.broadcastBytes, floor.broadcastPeriodMs, floor.cpuSeconds, floor.userCPUSeconds,
                    floor.cpuPerRequestUs, floor.userCPUPerRequestUs, floor.contextSwitchesPerRequest, floor.readWriteSyscallsPerRequest,
                    us(floor.probeRttP99Us), floor.dropped, floor.late))
                lines.append("the host's CPU per verdict against the floor's per request: \(ratio(hostCPUOverFloor)) (user \(ratio(hostUserCPUOverFloor)))")
            }
            if mode == .storm {
                lines.append(String(format: "join storm: %d of %d guests welcomed, the last %.2f s after they all started connecting; %d tries again",
                                    stormWelcomed ?? 0, guests - 1, stormSeconds ?? .nan, stormRetries ?? 0))
            }
            if mode == .restart {
                lines.append(String(format: "host crash and restart: %d links dropped, %d guests back, the last %.2f s after the new host listened (%d attempts)",
                                    restartDrops ?? 0, restartRejoined ?? 0, restartAllBackS ?? .nan, restartAttempts ?? 0))
                lines.append("resume (attempt → welcome): p50 \(us(resumeP50Us)), p99 \(us(resumeP99Us)); against a fresh join's connect p50: \(ratio(resumeP50Ratio))")
            }
            if probeRttP50Us != nil {
                lines.append("probe guest (\(1000 / Coordinator.probePeriodMs) guesses/s, \(probeRoundTrips ?? 0) round trips): p50 \(us(probeRttP50Us)), "
                    + "p99 \(us(probeRttP99Us)), slowest \(us(probeRttMaxUs)) at \(String(format: "%.1f", probeSlowestAtS ?? .nan)) s")
            }
        }
        lines += [
            "connect+handshake+welcome: p50 \(us(connectP50Us)), p99 \(us(connectP99Us))",
            String(format: "host RSS: %d KiB idle, %d KiB with all connected, %d KiB peak; %.1f KiB per guest", hostRssIdleKb, hostRssConnectedKb, hostRssKb, rssPerGuestKb),
            "dropped \(dropped), refused \(refused), late \(late), failed guests \(failedGuests)",
        ]
        if let attack {
            lines.append("under attack “\(attack.attack.rawValue)” from 127.0.0.2: \(attack.connections) connections, \(attack.framesSent) frames sent, \(attack.closedByHost) closed by the host")
        }
        return lines.joined(separator: "\n")
    }
}
