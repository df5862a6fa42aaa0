import Foundation
import Rooms
import Testing

@testable import RockPaperScissors

@Suite("The wire: JSON round trips and hostile JSON", .timeLimit(.minutes(1)))
struct CodingTests {
    func roundTrip<T: Codable & Equatable>(_ value: T) throws {
        #expect(try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value)) == value)
    }

    @Test("Moves, every event of a match, and every view survive a round trip")
    func roundTrips() throws {
        var table = try Table(bestOf: 1)
        let sealed = SealedHand(hand: .rock)
        try roundTrip(sealed.commitMove)
        try roundTrip(sealed.revealMove)
        try roundTrip(sealed)
        try roundTrip(try RPSSettings(bestOf: 7))
        try table.playThrow(.rock, .rock)
        for viewer in [alice, bob, carol, nil] { try roundTrip(table.rules.view(for: viewer)) }
        try table.playThrow(.rock, .scissors)
        table.events += table.rules.startRound(2, players: [alice, bob, carol])
        table.events += table.rules.playerLeft(carol)
        table.events += table.rules.startRound(3, players: [alice])
        for event in table.events { try roundTrip(event) }
        for viewer in [alice, bob, carol, nil] { try roundTrip(table.rules.view(for: viewer)) }
    }

    @Test("The JSON is small and keyed as documented")
    func shapes() throws {
        let salt = String(repeating: "ab", count: 32)
        #expect(try json(RPSMove.reveal(hand: .rock, salt: salt)) == #"{"reveal":{"hand":"rock","salt":"\#(salt)"}}"#)
        #expect(try json(RPSMove.commit(digest: salt)) == #"{"commit":{"digest":"\#(salt)"}}"#)
        #expect(try json(RPSSettings()) == #"{"bestOf":3}"#)
        #expect(try json(RPSEvent.waitingForSecondPlayer(number: 2)) == #"{"waitingForSecondPlayer":{"number":2}}"#)
    }

    @Test("Hostile JSON fails to decode, cleanly", arguments: [
        #"{"shoot":{"hand":"rock"}}"#,
        #"{"reveal":{"hand":"lizard","salt":"00"}}"#,
        #"{"reveal":{"hand":"rock"}}"#,
        #"{"commit":{"digest":12}}"#,
        #"{"commit":{"digest":"00"},"reveal":{"hand":"rock","salt":"00"}}"#,
        #"[]"#,
    ])
    func hostileMoves(text: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(RPSMove.self, from: Data(text.utf8)) }
    }

    @Test("Hostile events, views and settings fail to decode, cleanly", arguments: [
        #"{"matchStarted":{"number":1e40,"players":[],"bestOf":3}}"#,
        #"{"throwRevealed":{"result":{"throwNumber":1,"hands":[{"player":{"id":"x","name":"a"},"hand":"rock","salt":"00"}],"score":[]}}}"#,
        #"{"bothCommitted":{"throwNumber":1,"commitments":[{"player":{"id":"00000000-0000-0000-0000-00000000000A","name":"a"},"commitment":"ZZ"}]}}"#,
        #"{"gameOver":{}}"#,
    ])
    func hostileEvents(text: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(RPSEvent.self, from: Data(text.utf8)) }
    }

    @Test("Settings outside the rules do not decode", arguments: [#"{"bestOf":4}"#, #"{"bestOf":99999999999999999999}"#, #"{"bestOf":-3}"#, #"{}"#])
    func hostileSettings(text: String) {
        #expect(throws: (any Error).self) { try JSONDecoder().decode(RPSSettings.self, from: Data(text.utf8)) }
    }

    @Test("A view with an unknown phase or step does not decode")
    func hostileView() throws {
        let table = try Table()
        let text = try json(table.rules.view(for: alice)).replacingOccurrences(of: #""next":"commit""#, with: #""next":"cheat""#)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(RPSView.self, from: Data(text.utf8)) }
    }
}
