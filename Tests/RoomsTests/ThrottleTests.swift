import Rooms
import Testing

@Suite("The guess throttle", .timeLimit(.minutes(2)))
struct ThrottleTests {
    let start = ContinuousClock.now

    @Test("A burst is allowed at once, then the rate, with one warning a second")
    func bucket() {
        var throttle = Throttle(rate: 20, burst: 5)
        let allowed = (0..<5).map { _ in throttle.admit(at: start) }
        #expect(allowed.allSatisfy { $0 == .allowed })
        #expect(throttle.admit(at: start) == .refused(warn: true))
        #expect(throttle.admit(at: start) == .refused(warn: false))
        #expect(throttle.admit(at: start + .milliseconds(49)) == .refused(warn: false))
        #expect(throttle.admit(at: start + .milliseconds(51)) == .allowed, "one token refills every 50 ms")
        #expect(throttle.admit(at: start + .milliseconds(60)) == .refused(warn: false))
        #expect(throttle.admit(at: start + .milliseconds(1001)) == .allowed)
        let secondBurst = (0..<10).map { _ in throttle.admit(at: start + .milliseconds(1002)) }
        #expect(secondBurst.filter { $0 == .allowed }.count == 4, "refilled to the burst, less the one just taken")
        #expect(secondBurst.filter { $0 == .refused(warn: true) }.count == 1, "a new warning, a second after the last")
    }

    @Test("Over one simulated second of flooding, about rate + burst guesses get through")
    func flooding() {
        var throttle = Throttle(rate: 20, burst: 5)
        var allowed = 0
        var warnings = 0
        for step in 0..<1000 {  // 1,000 guesses a second for one second
            switch throttle.admit(at: start + .milliseconds(step)) {
            case .allowed: allowed += 1
            case .refused(let warn): if warn { warnings += 1 }
            }
        }
        #expect(allowed >= 24 && allowed <= 26)
        #expect(warnings == 1)
    }

    @Test("A quiet spell refills only up to the burst")
    func refillCapped() {
        var throttle = Throttle(rate: 20, burst: 5)
        for _ in 0..<5 { _ = throttle.admit(at: start) }
        let later = start + .seconds(60)
        #expect((0..<5).map { _ in throttle.admit(at: later) }.allSatisfy { $0 == .allowed })
        #expect(throttle.admit(at: later) != .allowed)
    }
}
