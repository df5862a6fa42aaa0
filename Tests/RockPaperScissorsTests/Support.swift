import Foundation
import Rooms
import Testing

@testable import RockPaperScissors

let alice = PlayerRef(id: UUID(uuidString: "00000000-0000-0000-0000-00000000000A")!, name: "alice")
let bob = PlayerRef(id: UUID(uuidString: "00000000-0000-0000-0000-00000000000B")!, name: "bob")
let carol = PlayerRef(id: UUID(uuidString: "00000000-0000-0000-0000-00000000000C")!, name: "carol")

/// A seeded generator, so that salts are the same on every run.
typealias SeededGenerator = SplitMix64

func json(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}

/// A room in miniature: the rules, everyone present, every event told so far, and the sealed
/// hands of the throw in progress.
struct Table {
    var rules: RPSRules
    var everyone: [PlayerRef]
    var events: [RPSEvent] = []
    var generator = SeededGenerator(seed: 27)

    init(bestOf: Int = 3, players: [PlayerRef] = [alice, bob, carol], round: Int = 1) throws {
        rules = RPSRules(settings: try RPSSettings(bestOf: bestOf))
        everyone = players
        events = rules.startRound(round, players: players)
    }

    /// The match's two players.
    var seated: [PlayerRef] { rules.view(for: nil).seats.map(\.player) }

    mutating func send(_ move: RPSMove, from player: PlayerRef) throws(MoveRefusal) {
        let outcome = try rules.apply(move, from: player)
        #expect(outcome.reply == nil)
        events += outcome.broadcast
    }

    /// Plays one throw between the seated players (`first` for the first seat), checking after
    /// every step that no view and no event shows a hand of the throw before both are revealed.
    /// Returns the events the throw caused.
    @discardableResult
    mutating func playThrow(_ first: Hand, _ second: Hand, secondRevealsFirst: Bool = false) throws -> [RPSEvent] {
        let players = seated
        let sealed = [SealedHand(hand: first, using: &generator), SealedHand(hand: second, using: &generator)]
        let start = events.count
        let throwNumber = rules.view(for: nil).throwNumber
        let order = secondRevealsFirst ? [1, 0] : [0, 1]
        try send(sealed[0].commitMove, from: players[0])
        try expectSecret(sealed, throwNumber: throwNumber, since: start)
        try send(sealed[1].commitMove, from: players[1])
        try expectSecret(sealed, throwNumber: throwNumber, since: start)
        try send(sealed[order[0]].revealMove, from: players[order[0]])
        try expectSecret(sealed, throwNumber: throwNumber, since: start)
        try send(sealed[order[1]].revealMove, from: players[order[1]])
        return Array(events[start...])
    }

    /// Nothing anyone can see names a hand of throw `throwNumber` or carries its salts.
    func expectSecret(_ sealed: [SealedHand], throwNumber: Int, since start: Int) throws {
        for viewer in everyone.map(Optional.some) + [nil] {
            let view = rules.view(for: viewer)
            #expect((view.lastThrow?.throwNumber ?? 0) < throwNumber)
            let text = try json(view)
            for seal in sealed { #expect(!text.contains(seal.salt.rawValue)) }
        }
        for event in events[start...] {
            if case .throwRevealed = event { Issue.record("a throw was revealed before both reveals were in") }
            let text = try json(event)
            for seal in sealed { #expect(!text.contains(seal.salt.rawValue)) }
        }
    }
}
