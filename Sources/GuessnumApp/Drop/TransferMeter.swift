import Foundation
import Multipeer

/// Turns a transfer's progress into the line people read: how much, how fast, how long left
/// ("photo.jpg  45%  1.4 MB of 3.2 MB  12.3 MB/s  2 s left"). The rate is measured over the
/// last few seconds, so a link that slows shows it.
public struct TransferMeter: Sendable {
    /// The name shown first.
    public let name: String
    private var samples: [(time: ContinuousClock.Instant, bytes: Int64)] = []
    private let window: Duration

    public init(name: String, window: Duration = .seconds(3)) {
        self.name = name
        self.window = window
    }

    /// Records `progress` at `time` and returns the line for it.
    public mutating func line(for progress: ResourceProgress, at time: ContinuousClock.Instant = .now) -> String {
        samples.append((time, progress.completedBytes))
        while let first = samples.first, time - first.time > window, samples.count > 2 { samples.removeFirst() }
        let percent = Int((progress.fractionCompleted * 100).rounded(.down))
        var parts = [name, "\(percent)%", "\(Self.bytes(progress.completedBytes)) of \(Self.bytes(progress.totalBytes))"]
        if let rate = bytesPerSecond, rate > 0 {
            parts.append("\(Self.bytes(Int64(rate)))/s")
            let left = Double(progress.totalBytes - progress.completedBytes) / rate
            if progress.completedBytes < progress.totalBytes { parts.append("\(Self.duration(left)) left") }
        }
        return parts.joined(separator: "  ")
    }

    /// Bytes per second over the samples kept; nil until two samples span some time.
    public var bytesPerSecond: Double? {
        guard let first = samples.first, let last = samples.last, last.time > first.time else { return nil }
        let seconds = Double((last.time - first.time).components.attoseconds) / 1e18 + Double((last.time - first.time).components.seconds)
        return Double(last.bytes - first.bytes) / seconds
    }

    /// A size in SI units, as people read them: "512 B", "1.4 MB", "3.2 GB".
    public static func bytes(_ count: Int64) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(count)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(count) B" : String(format: "%.1f %@", value, units[unit])
    }

    /// A time left, rounded up: "3 s", "2 min 5 s", "1 h 4 min".
    public static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return "\(whole / 60) min \(whole % 60) s" }
        return "\(whole / 3600) h \(whole % 3600 / 60) min"
    }
}
