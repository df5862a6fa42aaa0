import CMalloc
import Foundation

/// This process's memory as the kernel counts it (`/proc/self/status`).
enum ProcessMemory {
    /// Resident set size now, in KiB (`VmRSS`).
    static func residentKB() -> Int { field("VmRSS:") ?? 0 }

    /// The most resident memory since the process started or since ``resetPeak()``, in KiB
    /// (`VmHWM`).
    static func peakKB() -> Int { field("VmHWM:") ?? 0 }

    /// Sets the peak to the resident set now (writes 5 to `/proc/self/clear_refs`); false when
    /// the kernel would not.
    @discardableResult
    static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        return (try? handle.write(contentsOf: Data("5".utf8))) != nil
    }

    /// The heap as glibc's allocator holds it now, in KiB: bytes handed out (`uordblks` and
    /// `hblkhd`, the blocks mapped on their own) and bytes it holds free (`fordblks`), over
    /// every arena. The two are not resident memory: a block handed out counts whole here but
    /// is resident only in the pages written to (a large buffer used little counts far more
    /// here than in `VmRSS`).
    static func heapKB() -> (inUse: Int, free: Int) {
        let info = mallinfo2()
        return (inUse: Int((info.uordblks + info.hblkhd) / 1024), free: Int(info.fordblks / 1024))
    }

    private static func field(_ name: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            return Int(line.dropFirst(name.count).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
        }
        return nil
    }
}
