import Foundation

/// This process's memory as the kernel counts it (`/proc/self/status`).
enum ProcessMemory {
    /// Resident set size now, in KiB (`VmRSS`).
    static func residentKB() -> Int { field("VmRSS:") ?? 0 }

    private static func field(_ name: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            return Int(line.dropFirst(name.count).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
        }
        return nil
    }
}
