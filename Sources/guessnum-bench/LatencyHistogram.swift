import Histogram

/// Round-trip and connect times in nanoseconds, 3 significant digits, up to a minute.
typealias LatencyHistogram = Histogram<UInt64>

extension Histogram where Count == UInt64 {
    /// An empty histogram for latencies from 1 ns to 60 s.
    static func latencies() -> Histogram<UInt64> {
        Histogram(lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000_000, numberOfSignificantValueDigits: .three)
    }

    /// Records `nanoseconds`, clamped to the trackable range.
    mutating func recordLatency(_ nanoseconds: UInt64) {
        _ = record(Swift.min(Swift.max(nanoseconds, 1), highestTrackableValue))
    }

    /// The value at `percentile`, in microseconds, or nil when nothing was recorded.
    func microseconds(atPercentile percentile: Double) -> Double? {
        totalCount == 0 ? nil : Double(valueAtPercentile(percentile)) / 1000
    }
}
