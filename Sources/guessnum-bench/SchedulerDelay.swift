import Foundation

/// How long processes' threads were ready to run but waited for a core, as the kernel counts it
/// (`/proc/PID/task/TID/schedstat`: time on a core, time waiting on a run queue, times run), and
/// the CPU time of other processes (`/proc/PID/stat`): the two figures that say how much of a
/// latency tail is the machine's other work — on a 2-core machine, the benchmark's own guests.
enum SchedulerDelay {
    /// Waiting time and wake-ups summed over every thread of process `pid` (this one when nil).
    struct Waits {
        var nanoseconds: UInt64 = 0
        var timesRun: UInt64 = 0

        static func - (after: Waits, before: Waits) -> Waits {
            Waits(nanoseconds: after.nanoseconds &- before.nanoseconds, timesRun: after.timesRun &- before.timesRun)
        }
    }

    static func waits(ofProcess pid: Int32? = nil) -> Waits {
        let directory = "/proc/\(pid.map(String.init) ?? "self")/task"
        var total = Waits()
        for thread in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
            guard let text = try? String(contentsOfFile: "\(directory)/\(thread)/schedstat", encoding: .utf8) else { continue }
            let fields = text.split(separator: " ").compactMap { UInt64($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            guard fields.count >= 3 else { continue }
            total.nanoseconds += fields[1]
            total.timesRun += fields[2]
        }
        return total
    }

    /// CPU time, user and system, process `pid` has used, in nanoseconds (to a clock tick); nil
    /// when it has ended.
    static func cpuNanoseconds(ofProcess pid: Int32) -> UInt64? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        // After the command's name: state is field 3, utime and stime fields 14 and 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = UInt64(fields[11]), let system = UInt64(fields[12]) else { return nil }
        let tick = UInt64(max(1, sysconf(Int32(_SC_CLK_TCK))))
        return (user + system) * 1_000_000_000 / tick
    }
}
