#if canImport(Glibc)
import Glibc
#endif

/// The process's limit on open file descriptors (`ulimit -n`): every connection takes one, so a
/// host of many guests needs more than the usual soft limit of 1,024.
public enum FileLimit {
    /// The soft limit in force now.
    public static var current: Int {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        return Int(clamping: limit.rlim_cur)
    }

    /// Raises the soft limit to the hard limit, as far as the process may without privilege;
    /// returns the soft limit in force afterwards. A host calls it at start.
    @discardableResult
    public static func raiseToHardLimit() -> Int {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return current
    }

    /// Raises the soft limit to at least `wanted` (and the hard limit too when this process
    /// may, as root can); returns the soft limit in force afterwards.
    @discardableResult
    public static func raise(to wanted: Int) -> Int {
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
        return current
    }
}
