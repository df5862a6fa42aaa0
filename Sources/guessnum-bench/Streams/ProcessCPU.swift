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

    /// The system (kernel) part of ``nanoseconds()``.
    static func systemNanoseconds() -> UInt64 {
        let now = sample()
        return now.total - now.user
    }
}
