import Foundation
import Rooms
import Testing

@testable import Snap

@Suite("The JSON on the wire, and the rules kept for --resume", .timeLimit(.minutes(1)))
struct WireTests {
    let alice = Players.alice, bob = Players.bob, carol = Players.carol

    func roundTrip<T: Codable & Equatable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(value)
        #expect(try JSONDecoder().decode(T.self, from: data) == value)
        return String(decoding: data, as: UTF8.self)
    }

    func attempt(_ move: SnapMove, by player: PlayerRef, in rules: inout SnapRules) -> Result<[SnapEvent], MoveRefusal> {
        do { return .success(try rules.play(move, from: player)) } catch { return .failure(error) }
    }

    @Test("Moves, settings and cards are small and keyed as documented")
    func shapes() throws {
        #expect(try roundTrip(SnapMove.turn) == #"{"turn":{}}"#)
        #expect(try roundTrip(SnapMove.snap) == #"{"snap":{}}"#)
        #expect(try roundTrip(SnapSettings()) == "{}")
        #expect(try roundTrip(SnapSettings(seed: 42)) == #"{"seed":42}"#)
        #expect(try roundTrip(SnapSettings(seed: .max)) == #"{"seed":18446744073709551615}"#)
        #expect(try roundTrip([Card(.ten, .spades), Card(.queen, .diamonds)]) == #"["10♠","Q♦"]"#)
        let snapped = try roundTrip(SnapEvent.snapped(player: bob, rank: .jack, cardsTaken: 4))
        #expect(snapped.contains(#""rank":11"#) && snapped.contains(#""cardsTaken":4"#))
        #expect(try roundTrip(SnapView.Role.playing(seat: 1)) == #"{"playing":{"seat":1}}"#)
    }

    @Test("Every event and every view of a round survive a round trip")
    func events() throws {
        var rules = SnapRules.dealt([alice, bob, carol], seed: 5)
        var events = [SnapEvent.waiting(round: 1, players: []), .waiting(round: 1, players: [alice]), .roundStarted(round: 1, players: [alice, bob, carol])]
        events += [.pileTurnedOver(player: alice), .tooLate(player: carol, position: 2, after: bob), .wrongSnap(player: bob, givenTo: [alice, carol])]
        events += [.out(player: carol), .outOfTime(player: alice, card: Card(.ace, .clubs)), .left(player: carol, cardsPassedOn: 3), .won(winner: alice)]
        for _ in 0..<10 { events += try rules.turnForWhoeverIsNext() }
        for event in events { _ = try roundTrip(event) }
        for viewer in [alice, bob, carol, Players.dave, nil] { _ = try roundTrip(rules.view(for: viewer)) }
        _ = try roundTrip(SnapRules().view(for: alice))
        let json = try roundTrip(SnapRules.arranged([holding(alice, pile: "7♥"), holding(bob, stack: "2♠")]).view(for: bob))
        #expect(json.contains(#""top":"7♥""#) && json.contains(#""faceDown":1"#) && json.contains(#""phase":{"playing":{"next":{"#))
    }

    @Test("Rules kept mid-round come back the same, and go on exactly as the originals would")
    func resume() throws {
        var rules = SnapRules.dealt([alice, bob, carol], seed: 9)
        for _ in 0..<7 { try rules.turnForWhoeverIsNext() }
        _ = try? rules.play(.snap, from: carol)
        var resumed = try JSONDecoder().decode(SnapRules.self, from: JSONEncoder().encode(rules))
        #expect(resumed == rules)
        #expect(resumed.settings == SnapSettings(seed: 9))
        for _ in 0..<20 {
            #expect(try resumed.turnForWhoeverIsNext() == rules.turnForWhoeverIsNext())
            #expect(attempt(.snap, by: bob, in: &resumed) == attempt(.snap, by: bob, in: &rules))
        }
        _ = resumed.startRound(2, players: [alice, bob])
        _ = rules.startRound(2, players: [alice, bob])
        #expect(resumed == rules, "a seeded deal of a later round is the same too")
    }

    @Test("Moves, broadcasts and views go through the room's standard codec", arguments: [SnapMove.turn, .snap])
    func standardCodec(move: SnapMove) throws {
        typealias Codec = StandardRoomCodec<SnapRules>
        #expect(SnapRules.kind == GameKind(id: "snap", title: "Snap", messagePrefix: "snap.v1."))
        #expect(GameKind.isValidID(SnapRules.kind.id))
        #expect(Codec.moveType == "snap.v1.move")
        #expect(try Codec.decodeMove(from: Codec.encode(move: move)) == move)

        var rules = SnapRules.dealt([alice, bob], seed: 3)
        let events = try rules.turnForWhoeverIsNext()
        let batch = RoomBatch<SnapRules>(items: events.enumerated().map { .game(sequence: UInt64($0.offset + 1), event: $0.element) })
        let (batchType, batchPayload) = try Codec.encode(.batch(batch))
        #expect(batchType == "snap.v1.history")
        guard case .batch(let decoded)? = try Codec.decode(type: batchType, payload: batchPayload) else { Issue.record("not a batch"); return }
        #expect(decoded == batch)
        #expect(String(decoding: batchPayload, as: UTF8.self).contains(#""type":"snap.v1.event""#))

        let update = RoomViewUpdate<SnapRules>(lastSequence: 1, view: rules.view(for: bob))
        let (viewType, viewPayload) = try Codec.encode(.view(update))
        guard case .view(let view)? = try Codec.decode(type: viewType, payload: viewPayload) else { Issue.record("not a view"); return }
        #expect(view == update)

        let (refusedType, refusedPayload) = try Codec.encode(.refused(.notYourTurnToTurnOver))
        guard case .refused(let refusal)? = try Codec.decode(type: refusedType, payload: refusedPayload) else { Issue.record("not a refusal"); return }
        #expect(refusal == .notYourTurnToTurnOver)
    }

    @Test("Hostile JSON fails to decode, cleanly", arguments: [
        (#"{"shuffle":{}}"#, "move"),
        (#"{"turn":{},"snap":{}}"#, "move"),
        (#"[]"#, "move"),
        (#"{"turned":{"player":{"id":"6F9619FF-8B86-D011-B42D-00C04FC964FF","name":"x"},"card":"1♥"}}"#, "event"),
        (#"{"turned":{"player":{"id":"6F9619FF-8B86-D011-B42D-00C04FC964FF","name":"x"},"card":7}}"#, "event"),
        (#"{"snapped":{"player":{"id":"6F9619FF-8B86-D011-B42D-00C04FC964FF","name":"x"},"rank":15,"cardsTaken":2}}"#, "event"),
        (#"{"won":{"winner":{"id":"nope","name":"x"}}}"#, "event"),
        (#"{"explode":{}}"#, "event"),
        (#"{"round":1,"phase":{"waiting":{}},"players":[{"player":{"id":"6F9619FF-8B86-D011-B42D-00C04FC964FF","name":"x"},"faceDown":1,"faceUp":1,"top":"Z♠"}],"role":{"watching":{}}}"#, "view"),
        (#"{"round":1,"phase":{"dealing":{}},"players":[],"role":{"watching":{}}}"#, "view"),
        (#"{"round":1,"phase":{"waiting":{}},"players":[],"role":"king"}"#, "view"),
        (#"{"round":1e400,"phase":{"waiting":{}},"players":[],"role":{"watching":{}}}"#, "view"),
        (#"{"seed":-1}"#, "settings"),
        (#"{"seed":"42"}"#, "settings"),
    ])
    func hostile(json: String, type: String) {
        let data = Data(json.utf8)
        let decoder = JSONDecoder()
        switch type {
        case "move": #expect(throws: (any Error).self) { try decoder.decode(SnapMove.self, from: data) }
        case "event": #expect(throws: (any Error).self) { try decoder.decode(SnapEvent.self, from: data) }
        case "settings": #expect(throws: (any Error).self) { try decoder.decode(SnapSettings.self, from: data) }
        default: #expect(throws: (any Error).self) { try decoder.decode(SnapView.self, from: data) }
        }
    }

    @Test("A view whose seat is out of range makes nobody's turn the viewer's")
    func hostileSeat() throws {
        var view = SnapRules.dealt([alice, bob]).view(for: alice)
        view.role = .playing(seat: 9)
        #expect(view.mySeat == nil && !view.isMyTurn)
    }

    @Test("Every refusal has a stable code and one sentence, and names none of the other games use")
    func refusals() {
        let all: [MoveRefusal] = [.notYourTurnToTurnOver, .deckWaitsForSecondPlayer, .outOfCards, .alreadyCalledSnap, .watching, .roundOver]
        #expect(all.map(\.code) == ["notYourTurn", "waitingForOpponent", "outOfCards", "alreadyCalledSnap", "watching", "roundOver"])
        for refusal in all {
            #expect(refusal.message.hasSuffix("."))
            #expect(refusal.message.first?.isUppercase == true)
        }
    }
}
