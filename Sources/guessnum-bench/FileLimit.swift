#if canImport(Glibc)
import Glibc
#endif

/// The benchmark's own `ulimit -n`: thousands of guests need thousands of descriptors.
enum FileLimit {
    /// Raises the soft descriptor limit to at least `wanted` (and the hard limit too when this
    /// process may, as root can); returns the soft limit in force afterwards.
    @discardableResult
    static func raise(to wanted: Int) -> Int {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        let target = rlim_t(wanted)
        if limit.rlim_max < target {
            var raised = rlimit(rlim_cur: target, rlim_max: target)
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { return wanted }
        }
        if limit.rlim_cur < target {
            limit.rlim_cur = min(target, limit.rlim_max)
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        return Int(limit.rlim_cur)
    }
}
