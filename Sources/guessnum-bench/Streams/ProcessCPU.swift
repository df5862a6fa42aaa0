#if canImport(Glibc)
import Glibc
#endif

/// CPU time this process has used, user and system together (`getrusage`), in nanoseconds:
/// the stream benchmark reports what each side spends per MiB moved.
enum ProcessCPU {
    static func nanoseconds() -> UInt64 { sample().total }

    /// The whole and the user-space part (the process's own code, its libraries and the Swift
    /// runtime, without the kernel's share — which, for a ping-pong, is mostly waking threads
    /// and moves with the machine's idle state) from one reading, so that the user part of a
    /// difference never exceeds the whole (two readings apart let another thread's time in
    /// between: a starved run saw more user CPU per verdict than CPU).
    static func sample() -> (total: UInt64, user: UInt64) {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func ns(_ time: timeval) -> UInt64 { UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_usec) * 1000 }
        return (ns(usage.ru_utime) + ns(usage.ru_stime), ns(usage.ru_utime))
    }

    /// What the process did so far that does not move with the machine's speed: context
    /// switches (voluntary — it waited — and involuntary — it was preempted, from `getrusage`)
    /// and read- and write-like system calls (`syscr`, `syscw` of `/proc/self/io`: read, recvmsg,
    /// write, sendmsg and their kin, not epoll_wait).
    static func counters() -> ProcessCounters {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        var counters = ProcessCounters(contextSwitches: UInt64(usage.ru_nvcsw) + UInt64(usage.ru_nivcsw))
        if let io = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) {
            for line in io.split(separator: "\n") {
                let parts = line.split(separator: ":")
                guard parts.count == 2, let value = UInt64(parts[1].trimmingCharacters(in: .whitespaces)) else { continue }
                if parts[0] == "syscr" || parts[0] == "syscw" { counters.readWriteSyscalls += value }
            }
        }
        return counters
    }

    /// The system (kernel) part of ``nanoseconds()``.
    static func systemNanoseconds() -> UInt64 {
        let now = sample()
        return now.total - now.user
    }
}

/// Counts of a process's work that a faster machine does not shrink (``ProcessCPU/counters()``).
struct ProcessCounters: Sendable {
    var contextSwitches: UInt64
    var readWriteSyscalls: UInt64 = 0

    /// What happened between `start` and this reading, per one of `count` exchanges.
    func per(_ count: Double, since start: ProcessCounters) -> (contextSwitches: Double, readWriteSyscalls: Double) {
        (Double(contextSwitches &- start.contextSwitches) / count, Double(readWriteSyscalls &- start.readWriteSyscalls) / count)
    }
}
