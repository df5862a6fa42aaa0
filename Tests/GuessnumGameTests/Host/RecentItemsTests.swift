import Foundation
@testable import GuessnumGame
import Testing

@Suite("The items kept for players who come back", .timeLimit(.minutes(1)))
struct RecentItemsTests {
    let bob = PlayerRef(id: UUID(), name: "bob")

    func chats(_ numbers: ClosedRange<UInt64>) -> [HistoryItem] {
        numbers.map { .chat(RelayedChat(sequence: $0, from: bob, text: "line \($0)")) }
    }

    @Test("What came after a number is replayed in order while it is kept; once let go, or for a number not given yet, nothing is")
    func keepsTheLatest() {
        var recent = RecentItems<HistoryItem>(limit: 5)
        recent.append(contentsOf: chats(1...3))
        #expect(recent.after(0, newest: 3)?.compactMap(\.sequence) == [1, 2, 3])
        #expect(recent.after(2, newest: 3)?.compactMap(\.sequence) == [3])
        #expect(recent.after(3, newest: 3)?.isEmpty == true, "nothing missed")
        #expect(recent.after(4, newest: 3) == nil, "a number the host never gave")

        recent.append(contentsOf: chats(4...9))
        #expect(recent.count == 5 && recent.floor == 4)
        #expect(recent.after(4, newest: 9)?.compactMap(\.sequence) == [5, 6, 7, 8, 9])
        #expect(recent.after(3, newest: 9) == nil, "item 4 was let go: a welcome instead")
    }

    @Test("Sequence numbers with gaps (items not broadcast) and many ticks keep the bound and the order")
    func manyTicks() {
        var recent = RecentItems<HistoryItem>(limit: 100)
        var number: UInt64 = 0
        for _ in 0..<1_000 {
            number += 2  // every other number went to an item no one was sent
            recent.append(contentsOf: [.chat(RelayedChat(sequence: number, from: bob, text: "x"))])
        }
        #expect(recent.count == 100)
        #expect(recent.after(number - 9, newest: number)?.compactMap(\.sequence) == [number - 8, number - 6, number - 4, number - 2, number])
        #expect(recent.after(number - 200, newest: number)?.count == 100)
        #expect(recent.after(number - 201, newest: number) == nil)
    }

    @Test("With nothing kept (a limit of 0), every comeback gets a welcome unless nothing happened")
    func keepsNothing() {
        var recent = RecentItems<HistoryItem>(limit: 0)
        recent.append(contentsOf: chats(1...2))
        #expect(recent.after(0, newest: 2) == nil)
        #expect(recent.after(2, newest: 2)?.isEmpty == true)
    }
}
