#if canImport(Glibc)
import Glibc
#endif

/// CPU time this process has used, user and system together (`getrusage`), in nanoseconds:
/// the stream benchmark reports what each side spends per MiB moved.
enum ProcessCPU {
    static func nanoseconds() -> UInt64 {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func ns(_ time: timeval) -> UInt64 { UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_usec) * 1000 }
        return ns(usage.ru_utime) + ns(usage.ru_stime)
    }

    /// The user-space part of ``nanoseconds()``: the process's own code, its libraries and the
    /// Swift runtime, without the kernel's share — which, for a ping-pong, is mostly waking
    /// threads and moves with the machine's idle state.
    static func userNanoseconds() -> UInt64 {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return UInt64(usage.ru_utime.tv_sec) * 1_000_000_000 + UInt64(usage.ru_utime.tv_usec) * 1000
    }

    /// The system (kernel) part of ``nanoseconds()``.
    static func systemNanoseconds() -> UInt64 {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return UInt64(usage.ru_stime.tv_sec) * 1_000_000_000 + UInt64(usage.ru_stime.tv_usec) * 1000
    }
}
