import Foundation

/// How long processes' threads were ready to run but waited for a core, as the kernel counts it
/// (`/proc/PID/task/TID/schedstat`: time on a core, time waiting on a run queue, times run), and
/// the CPU time of other processes (`/proc/PID/stat`): the two figures that say how much of a
/// latency tail is the machine's other work — on a 2-core machine, the benchmark's own guests.
enum SchedulerDelay {
    /// Waiting time and times run of one thread, or summed over several.
    struct Waits {
        var nanoseconds: UInt64 = 0
        var timesRun: UInt64 = 0
    }

    /// Every thread of process `pid` (this one when nil) now, by thread ID.
    static func threads(ofProcess pid: Int32? = nil) -> [String: Waits] {
        let directory = "/proc/\(pid.map(String.init) ?? "self")/task"
        var threads: [String: Waits] = [:]
        for thread in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
            guard let text = try? String(contentsOfFile: "\(directory)/\(thread)/schedstat", encoding: .utf8) else { continue }
            let fields = text.split(separator: " ").compactMap { UInt64($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            guard fields.count >= 3 else { continue }
            threads[thread] = Waits(nanoseconds: fields[1], timesRun: fields[2])
        }
        return threads
    }

    /// What the threads of `after` waited and ran since `before`, summed: a thread that began in
    /// between counts whole; one that ended in between is missing from both sides' difference
    /// (its last figures are gone with it), so the sum is a lower bound.
    static func waited(from before: [String: Waits], to after: [String: Waits]) -> Waits {
        var total = Waits()
        for (thread, now) in after {
            let then = before[thread] ?? Waits()
            guard now.nanoseconds >= then.nanoseconds, now.timesRun >= then.timesRun else { continue }
            total.nanoseconds += now.nanoseconds - then.nanoseconds
            total.timesRun += now.timesRun - then.timesRun
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
