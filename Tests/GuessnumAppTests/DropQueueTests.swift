import Foundation
@testable import GuessnumApp
import Testing

/// The drop box's queue as a value: what may wait, in which order questions come, what may run.
@Suite("The drop box's queue", .timeLimit(.minutes(1)))
struct DropQueueTests {
    let mallory = (0..<20).map { _ in UUID() }
    let bob = UUID()

    @Test("Offers wait within 4 a sender, 8 a network and 64 in all; the others are declined at once with a sentence")
    func bounds() {
        var queue = DropQueue<String>()
        var refusals: [String] = []
        for (index, sender) in mallory.enumerated() {
            for offer in 0..<64 {
                if let refusal = queue.add("m\(index).\(offer)", from: sender, network: "10.0.0.66") { refusals.append(refusal) }
            }
        }
        #expect(queue.waiting.count == 8, "one network's share")
        #expect(refusals.first == "4 of your offers wait already; offer more once they are answered")
        #expect(refusals.contains("8 offers from your network address wait already; try again later"))
        #expect(queue.add("b", from: bob, network: "10.0.0.2") == nil, "another network's sender still gets in")

        var everyone = DropQueue<String>()
        for index in 0..<70 { _ = everyone.add("o\(index)", from: UUID(), network: "10.1.0.\(index)") }
        #expect(everyone.waiting.count == 64)
        #expect(everyone.add("late", from: UUID(), network: "10.2.0.1") == "64 offers wait already; try again later")
    }

    @Test("Questions go round the networks: a sender on another network is asked second, however many offers a flood queued first")
    func fairOrder() {
        var queue = DropQueue<String>()
        for (index, sender) in mallory.prefix(2).enumerated() {
            for offer in 0..<4 { _ = queue.add("m\(index).\(offer)", from: sender, network: "10.0.0.66") }
        }
        _ = queue.add("b", from: bob, network: "10.0.0.2")
        #expect(queue.nextQuestion()?.offer == "m0.0")
        #expect(queue.nextQuestion()?.offer == "b")
        #expect(queue.nextQuestion()?.offer == "m0.1")
    }

    @Test("At most 2 transfers a sender and 8 in all run at once; one ending starts the next; a sender gone takes its waiting offers with it")
    func transfers() {
        var queue = DropQueue<String>()
        let senders = (0..<6).map { _ in UUID() }
        for (index, sender) in senders.enumerated() {
            for offer in 0..<3 { _ = queue.add("s\(index).\(offer)", from: sender, network: "10.0.0.\(index)") }
        }
        let first = queue.startable(takingWaiting: true)
        #expect(first.count == 8 && queue.transferCount == 8)
        #expect(Dictionary(grouping: first, by: \.sender).values.allSatisfy { $0.count <= 2 })
        #expect(queue.startable(takingWaiting: true).isEmpty, "every transfer is taken")
        queue.finished(from: first[0].sender)
        let next = queue.startable(takingWaiting: true)
        #expect(next.count == 1 && queue.transferCount == 8)
        let gone = senders.first { sender in queue.waiting.contains { $0.sender == sender } }!
        let withdrawn = queue.withdraw(gone)
        #expect(!withdrawn.isEmpty && !queue.waiting.contains { $0.sender == gone })

        // Asked and accepted, an offer waits for a transfer like the others.
        var asked = DropQueue<String>()
        for offer in 0..<3 { _ = asked.add("b\(offer)", from: bob, network: "10.0.0.2") }
        for _ in 0..<3 { asked.accept(asked.nextQuestion()!) }
        #expect(asked.startable(takingWaiting: false).map(\.offer) == ["b0", "b1"])
        asked.finished(from: bob)
        #expect(asked.startable(takingWaiting: false).map(\.offer) == ["b2"])
    }
}
