import Foundation
@testable import Rooms
import Testing

/// How password refusals reach the host's screen: the first of a network at once, then at most
/// one summary a minute with the count.
@Suite("Password refusals for the host's screen", .timeLimit(.minutes(1)))
struct PasswordRefusalTallyTests {
    let start = ContinuousClock.now

    @Test("A network's first refusal is told at once; the rest of its minute in one summary when it ends; a quiet minute closes it")
    func onceAMinute() {
        var tally = PasswordRefusalTally()
        let first = tally.note(.wrong, from: "10.0.0.2", at: start)
        #expect(first == PasswordRefusals(network: "10.0.0.2", counts: [.wrong: 1], isSummary: false))
        for second in 1...4 { #expect(tally.note(.wrong, from: "10.0.0.2", at: start + .seconds(second)) == nil) }
        #expect(tally.note(.tooMany, from: "10.0.0.2", at: start + .seconds(5)) == nil)
        #expect(tally.note(.tooMany, from: "10.0.0.3", at: start + .seconds(5)) != nil, "another network is told of at once")
        #expect(tally.due(at: start + .seconds(59)).isEmpty)

        let summaries = tally.due(at: start + .seconds(60))
        #expect(summaries == [PasswordRefusals(network: "10.0.0.2", counts: [.wrong: 4, .tooMany: 1], isSummary: true)])
        #expect(tally.note(.wrong, from: "10.0.0.2", at: start + .seconds(61)) == nil, "the next minute is open")
        #expect(tally.due(at: start + .seconds(119)).isEmpty)
        #expect(tally.due(at: start + .seconds(120)).map(\.total) == [1])
        #expect(tally.due(at: start + .seconds(180)).isEmpty, "a quiet minute closes it")
        #expect(tally.note(.wrong, from: "10.0.0.2", at: start + .seconds(181))?.isSummary == false, "then a refusal is told at once again")
    }
}
