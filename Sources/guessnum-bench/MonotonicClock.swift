#if canImport(Glibc)
import Glibc
#endif

/// Nanoseconds on the system-wide monotonic clock, comparable between processes on one machine
/// (the workers and the host stamp times that the coordinator subtracts).
enum MonotonicClock {
    static func nanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}
