import Foundation
@testable import GuessnumApp
import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Synchronization
import Testing

/// A drop box flooded with offers from one network: a real sender on another network is asked
/// second, the flood's excess is declined at once, and a flood that leaves takes its offers with
/// it — in process, over the in-memory network.
@Suite("A flooded drop box", .timeLimit(.minutes(3)))
struct DropBoxFloodTests {
    /// How long a wait may take before it is taken for a hang. The test waits on chains of a
    /// dozen hops (hashing, offer, decline, outcome) for each of 12 files; when the whole suite
    /// starts at once on a third of a 2-core machine, they took over 30 s.
    static let hang: Duration = .seconds(120)

    /// The person at the box: the questions asked, and the answers to give, in order.
    actor Person {
        private(set) var questions: [String] = []
        private var answers: [Bool] = []
        private var waiting: CheckedContinuation<Bool, Never>?

        func answer(_ yes: Bool) {
            if let waiting {
                self.waiting = nil
                waiting.resume(returning: yes)
            } else {
                answers.append(yes)
            }
        }

        func ask(_ question: String) async -> Bool {
            questions.append(question)
            if !answers.isEmpty { return answers.removeFirst() }
            return await withCheckedContinuation { waiting = $0 }
        }

        /// The questions, once there are `count` (the bound only catches a hang).
        func asked(_ count: Int) async -> [String] {
            let deadline = ContinuousClock.now + DropBoxFloodTests.hang
            while questions.count < count, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(10)) }
            return questions
        }
    }

    final class Lines: DropOutput {
        let lines = Mutex<[String]>([])
        func line(_ text: String) { lines.withLock { $0.append(text) } }
        func progress(of name: String, _ text: String, fraction: Double) {}
        func contains(_ fragment: String) -> Bool { lines.withLock { $0.contains { $0.contains(fragment) } } }
    }

    @Test("Two links of one network offer 12 files: one is asked about, 8 wait, the rest are declined at once; bob on another network is asked second; the flood gone, its offers go and no question about them is asked")
    func flood() async throws {
        try await withSessions { scope in
            let network = InMemoryNetwork()
            let inbox = try ResourceScenarios.emptyDirectory()
            let rita = scope.session(localPeer: peer("rita"), transport: network)
            let person = Person()
            let output = Lines()
            let box = DropBox(
                session: rita, discovery: network.discovery, directory: inbox, acceptAll: false, once: false, output: output,
                command: "guessnum", limits: DropQueue.Limits(), ask: { await person.ask($0) })
            let running = Task { try await box.run(port: 0) }
            defer { box.stop() }
            #expect(await eventually(within: Self.hang) { rita.listeningPort != nil })
            let endpoint = try Endpoint(host: InMemoryNetwork.host, port: try #require(rita.listeningPort))

            let attacker = network.machine(address: "10.0.0.66")
            var floods: [Session] = []
            let refusals = Lines()
            for index in 0..<2 {
                let mallory = scope.session(localPeer: peer("mallory\(index)"), transport: attacker)
                #expect(try await mallory.invite(endpoint) == .connected(rita.localPeer))
                for file in 0..<6 {
                    let offered = try mallory.sendResource(at: try ResourceScenarios.file(named: "flood-\(index)-\(file).bin", Data([1, 2, 3])), to: rita.localPeer)
                    Task {
                        do throws(MultipeerError) { try await offered.outcome() } catch { refusals.line(error.message) }
                    }
                }
                floods.append(mallory)
            }
            #expect(await eventually(within: Self.hang) { refusals.lines.withLock { $0.count } == 3 }, "past the first (asked about at once) and the 4 that wait for each link: \(refusals.lines.withLock { $0 })")
            #expect(refusals.lines.withLock { $0 }.allSatisfy { $0.contains("4 of your offers wait already") }, "\(refusals.lines.withLock { $0 })")
            // Files are offered once hashed, in no set order: the first question is one of the flood's.
            let first = await person.asked(1).first ?? ""
            #expect(first.hasPrefix("mallory") && first.contains(" offers “flood-"), "\(first)")

            let bob = scope.session(localPeer: peer("bob"), transport: network.machine(address: "10.0.0.2"))
            #expect(try await bob.invite(endpoint) == .connected(rita.localPeer))
            let bobsFile = try ResourceScenarios.file(named: "minutes.txt", Data("the minutes".utf8))
            // The box observes offers before this log does (it began first): once the log has bob's,
            // the box's queue has it too.
            let offers = EventLog(rita.events, .resourceOffered)
            let sent = try bob.sendResource(at: bobsFile, to: rita.localPeer)
            #expect(await offers.first { $0.peer == bob.localPeer } != nil)
            await person.answer(false)
            let second = await person.asked(2)
            #expect(second.last?.hasPrefix("bob offers “minutes.txt” (11 B).") == true, "\(second)")

            // The flood leaves before bob is answered: its six waiting offers go with it.
            for mallory in floods { await mallory.disconnect() }
            #expect(await eventually(within: Self.hang) { output.contains("mallory0 left: its 4 offers were withdrawn.") && output.contains("mallory1 left:") }, "\(output.lines.withLock { $0 })")
            await person.answer(true)
            try await sent.outcome()
            #expect(await eventually(within: Self.hang) { FileManager.default.fileExists(atPath: inbox.appendingPathComponent("minutes.txt").path) })
            try await Task.sleep(for: .milliseconds(100))
            #expect(await person.questions.count == 2, "no question about an offer whose sender left")
            box.stop()
            #expect(try await running.value == 0)
        }
    }
}
