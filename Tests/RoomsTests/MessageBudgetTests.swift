@testable import Rooms
import Testing

@Suite("One message budget per guest", .timeLimit(.minutes(1)))
struct MessageBudgetTests {
    let start = ContinuousClock.now

    @Test("A burst is refused in part but never cut off; staying over the budget is cut off once")
    func burstThenFlood() {
        var budget = MessageBudget(perSecond: 10, burst: 5, cutOffAfter: .seconds(3))
        let burst = (0..<300).map { _ in budget.charge(at: start) }
        #expect(burst.filter { $0 == .allowed }.count == 5)
        #expect(!burst.contains(.cutOff), "one burst, however big, is not a flood")

        // A quiet spell, then a flood of 100 a second (ten times the budget) for five seconds.
        var decisions: [(Duration, MessageBudget.Decision)] = []
        for tick in 0..<500 {
            let offset = Duration.seconds(10) + .milliseconds(tick * 10)
            decisions.append((offset, budget.charge(at: start + offset)))
        }
        let cutOffs = decisions.filter { $0.1 == .cutOff }
        #expect(cutOffs.count == 1, "cut off once, then ignored")
        if let at = cutOffs.first?.0 {
            #expect(at >= .seconds(13) && at < .seconds(14), "cut off after three seconds over the budget, at \(at)")
        }
        #expect(decisions.drop { $0.1 != .cutOff }.dropFirst().allSatisfy { $0.1 == .refused })
    }

    @Test("Refusals a few seconds apart are separate bursts, not a flood")
    func separateBursts() {
        var budget = MessageBudget(perSecond: 1, burst: 1, cutOffAfter: .seconds(3))
        for second in stride(from: 0, to: 20, by: 2) {
            let now = start + .seconds(second)
            for _ in 0..<50 {
                let decision = budget.charge(at: now)
                #expect(decision != .cutOff)
            }
        }
    }
}
