import Foundation
import Multipeer
import Testing
import TicTacToe

@testable import Rooms

/// The room as a guest knows it, when items come out of order: after a drop the host may send
/// new items before what the guest missed.
@Suite("A guest's room: items after a gap wait for what is missing", .timeLimit(.minutes(1)))
struct RoomGuestStateTests {
    typealias Item = RoomItem<TicTacToeRules>
    let bob = PlayerRef(id: UUID(), name: "bob")

    func chat(_ sequence: UInt64) -> Item { .chat(RelayedChat(sequence: sequence, from: bob, text: "line \(sequence)")) }

    func welcomed(at sequence: UInt64) -> RoomGuestState<TicTacToeRules> {
        var state = RoomGuestState<TicTacToeRules>()
        let welcome = RoomWelcome<TicTacToeRules>(
            you: bob, round: 1, lastSequence: sequence, players: [bob], scores: [], seatHoldSeconds: 60,
            view: TicTacToeRules().view(for: bob))
        state.take(welcome, from: try! PeerID(displayName: "alice"))
        return state
    }

    @Test("Items in order are taken; items after a gap are held and asked for once a second, then taken in order when the missing ones arrive")
    func gapHeldUntilFilled() {
        var state = welcomed(at: 5)
        #expect(state.take([chat(6), chat(7)]).taken.map(\.sequence) == [6, 7])
        let early = state.take([chat(10), chat(11)])
        #expect(early.taken.isEmpty && early.gap, "10 and 11 wait for 8 and 9")
        #expect(state.lastSequence == 7)
        let now = ContinuousClock.now
        #expect(state.missingToAskFor(at: now) == 7, "asks for what came after 7")
        #expect(state.missingToAskFor(at: now + .milliseconds(500)) == nil, "not again at once")
        #expect(state.missingToAskFor(at: now + .seconds(1)) == 7, "again after a second unanswered")
        let filled = state.take([chat(8), chat(9)])
        #expect(filled.taken.map(\.sequence) == [8, 9, 10, 11] && !filled.gap)
        #expect(state.missingToAskFor(at: now + .seconds(5)) == nil, "nothing is missing")
        #expect(state.take([chat(9), chat(11)]).taken.isEmpty, "nothing twice")
    }

    @Test("A welcome fills a gap: the held items after it are taken, those it covers dropped")
    func welcomeFillsGap() {
        var state = welcomed(at: 5)
        _ = state.take([chat(9), chat(12), chat(13)])
        state.take(RoomWelcome(you: bob, round: 1, lastSequence: 11, players: [bob], scores: [], seatHoldSeconds: 60,
                               view: TicTacToeRules().view(for: bob)), from: try! PeerID(displayName: "alice"))
        #expect(state.take([]).taken.map(\.sequence) == [12, 13])
        #expect(state.held.isEmpty)
    }

    @Test("A host that numbers up to the last UInt64 does not stop the guest")
    func lastSequenceNumber() {
        var state = welcomed(at: UInt64.max - 1)
        #expect(state.take([chat(UInt64.max)]).taken.map(\.sequence) == [UInt64.max])
        #expect(state.take([chat(3)]).taken.isEmpty, "nothing after the last number")
        var edge = welcomed(at: UInt64.max)
        #expect(edge.take([]).taken.isEmpty)
    }

    @Test("A batch that counts items instead of listing them skips their numbers without holding what follows; so does a replay of what the host kept")
    func countedItemsSkipNumbers() {
        var state = welcomed(at: 5)
        let counted = state.take([chat(6), chat(9), chat(10)], skippingNumbers: true)
        #expect(counted.taken.map(\.sequence) == [6, 9, 10] && !counted.gap, "7 and 8 were counted, not missed")
        #expect(state.lastSequence == 10)
        let missed = state.take([chat(13)])
        #expect(missed.taken.isEmpty && missed.gap, "a batch without counts still waits for what it skips")
        let replay = RoomBatch<TicTacToeRules>(replaying: [chat(11), chat(13)], after: 10)
        #expect(replay.omittedOthers == 1 && replay.hasOmissions, "the replay says one number of its range was counted")
        #expect(state.take(replay.items, skippingNumbers: replay.hasOmissions).taken.map(\.sequence) == [11, 13])
        #expect(RoomBatch<TicTacToeRules>(replaying: [chat(11), chat(12)], after: 10).hasOmissions == false)
    }

    func told(_ events: [RoomGuestEvent<TicTacToeRules>]) -> [String] {
        events.map { event in
            switch event {
            case .item(let item): "item \(item.sequence ?? 0)"
            case .replyCopy(let item): "copy \(item.sequence ?? 0)"
            case .reply: "reply"
            default: "other"
            }
        }
    }

    @Test("A reply numbered as its move's broadcast item is told in the host's order, and its copy is kept but not told again")
    func numberedReply() throws {
        var state = welcomed(at: 5)
        let alice = try PeerID(displayName: "alice")
        let placed = TicTacToeEvent.placed(player: bob, mark: .x, square: Square(5)!)
        #expect(told(state.take(.reply(placed, sequence: 7), from: alice)).isEmpty, "item 6 comes before it")
        #expect(told(state.take(.batch(RoomBatch(items: [chat(6)])), from: alice)) == ["item 6", "reply"])
        #expect(told(state.take(.batch(RoomBatch(items: [.game(sequence: 7, event: placed), chat(8)])), from: alice)) == ["copy 7", "item 8"])
        #expect(state.gameEvents == [placed], "the copy is kept")
        #expect(told(state.take(.reply(placed, sequence: 8), from: alice)).isEmpty, "a reply after its copy is not told")
        #expect(told(state.take(.reply(placed, sequence: nil), from: alice)) == ["reply"], "an unnumbered reply is told at once")
    }

    @Test("A game whose replays come as batches holds nothing after a drop: the numbering keeps the order, and new items are the catch-up")
    func dropWithBatchReplays() throws {
        var state = welcomed(at: 5)
        let before = state
        state.holdBroadcasts()
        #expect(state.heldBatches == nil)
        #expect(!state.hasCaughtUp(since: before))
        #expect(told(state.take(.batch(RoomBatch(replaying: [chat(6)], after: 5)), from: try PeerID(displayName: "alice"))) == ["item 6"])
        #expect(state.hasCaughtUp(since: before))
    }
}
