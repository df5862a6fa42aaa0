import Foundation
import Synchronization

/// How much a process's resident memory grows during one transfer: the resident set just
/// before (the baseline), then both the kernel's peak (`VmHWM`, reset to the baseline at the
/// start) and the highest `VmRSS` a thread of its own samples every 10 ms, until ``stop()``.
final class MemoryWatch: Sendable {
    /// What one watch saw, in KiB.
    struct Growth: Sendable {
        let baselineKB: Int
        /// The kernel's peak minus the baseline (0 when the peak could not be reset).
        let peakGrowthKB: Int
        /// The highest sample minus the baseline.
        let sampledGrowthKB: Int

        /// The larger of the two: what the goal is judged on.
        var growthKB: Int { max(peakGrowthKB, sampledGrowthKB) }

        var json: [String: Int] {
            ["rss_baseline_kb": baselineKB, "rss_peak_growth_kb": peakGrowthKB, "rss_sampled_growth_kb": sampledGrowthKB]
        }
    }

    private let baseline: Int
    private let peakWasReset: Bool
    private let highest: Atomic<Int>
    private let running = Atomic<Bool>(true)

    /// Starts watching now.
    init() {
        peakWasReset = ProcessMemory.resetPeak()
        baseline = ProcessMemory.residentKB()
        highest = Atomic(baseline)
        Thread.detachNewThread { [self] in
            while running.load(ordering: .relaxed) {
                let now = ProcessMemory.residentKB()
                if now > highest.load(ordering: .relaxed) { highest.store(now, ordering: .relaxed) }
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
    }

    /// Stops sampling; the growth seen.
    func stop() -> Growth {
        running.store(false, ordering: .relaxed)
        let peak = peakWasReset ? ProcessMemory.peakKB() - baseline : 0
        return Growth(baselineKB: baseline, peakGrowthKB: max(0, peak), sampledGrowthKB: max(0, highest.load(ordering: .relaxed) - baseline))
    }
}
