import Rooms

/// Every check of one `guessnum doctor` run, in order, and what they add up to.
public struct DoctorReport: Sendable, Equatable {
    /// The checks in the order they ran.
    public var checks: [DoctorCheck]

    public init(checks: [DoctorCheck]) {
        self.checks = checks
    }

    /// The checks that failed.
    public var failures: [DoctorCheck] { checks.filter { $0.status == .failed } }
    /// The checks that only warn.
    public var warnings: [DoctorCheck] { checks.filter { $0.status == .warning } }
    /// The checks that did not run.
    public var skipped: [DoctorCheck] { checks.filter { $0.status == .skipped } }

    /// The exit status: 0 when no check failed, 1 when one did (warnings and skipped checks do not count).
    public var exitStatus: Int32 { failures.isEmpty ? 0 : 1 }

    /// The last line: “All checks passed.”, or how many problems there are and which checks did not run.
    public var summary: String {
        var sentences: [String] = []
        switch (failures.count, warnings.count) {
        case (0, 0): sentences.append(skipped.isEmpty ? "All checks passed." : "No problems found.")
        case (0, let warned): sentences.append("No problems found; \(Wording.count(warned, "warning")) above.")
        case (let failed, 0): sentences.append("\(Wording.count(failed, "problem")) found; the \(failed == 1 ? "fix is" : "fixes are") above.")
        case (let failed, let warned):
            sentences.append("\(Wording.count(failed, "problem")) and \(Wording.count(warned, "warning")) found; the fixes are above.")
        }
        if !skipped.isEmpty {
            let names = skipped.map(\.title).joined(separator: ", ")
            sentences.append("\(Wording.count(skipped.count, "check")) skipped: \(names).")
        }
        return sentences.joined(separator: " ")
    }
}
