import Foundation
@testable import GuessnumApp
import GuessnumGame
@testable import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Testing

/// `--ask`: the host is asked about each player, in a private game too, and questions waiting
/// for an answer are limited (each holds its inviter's handshake place).
@Suite("Asking the host", .timeLimit(.minutes(1)))
struct AskingHostTests {
    @Test("In a private game the host is asked too: a yes lets the player with the right password in")
    func privateGameAsks() async throws {
        let password = try GamePassword("open sesame")
        let game = try await AppHarness(asks: true, password: password)
        let bob = try game.player("bob", gameName: "alice", password: password)
        #expect(await game.hostConsole.line(containing: "bob wants to join") != nil, "\(game.hostConsole.lines)")
        #expect(game.room.playerCount == 0)
        game.hostInbox.post(.typed("y"))
        #expect(await bob.console.line(containing: "Welcome, bob!") != nil, "\(bob.console.lines)")
        _ = await bob.stop()
        #expect(await game.stopHost() == nil)
    }

    /// An invitation from `address` that expires in a minute.
    static func invitation(_ name: String, from address: String) -> Invitation {
        Invitation(
            peer: peer(name), context: Data(), remoteDescription: "\(address.contains(":") ? "[\(address)]" : address):50000",
            expires: .now + .seconds(60), codeCommitment: [])
    }

    @Test("At most two questions wait from one network and eight in all; the others are turned away at once with a sentence")
    func questionsAreLimited() async throws {
        let questions = JoinQuestions()
        let console = ScriptedConsole()
        var waiting: [Task<InvitationDecision, Never>] = []
        for index in 1...2 {
            let invitation = Self.invitation("guest\(index)", from: "2001:db8:0:1::\(index)")
            waiting.append(Task { await questions.ask(invitation, console: console) })
        }
        #expect(await eventually { questions.waitingCount == 2 })
        // One question is shown at a time, whichever of the two tasks asked first; it counts as
        // waiting before its line is printed, so wait for the line itself.
        #expect(await eventually { console.lines.contains { $0.contains(/guest[12] wants to join \(from \[2001:db8:0:1::[12]\]:50000\)/) } }, "\(console.lines)")
        let third = await questions.ask(Self.invitation("guest3", from: "2001:db8:0:1::3"), console: console)
        #expect(third == .decline(reason: "the host is being asked about 2 players from your network address already; try again in a minute"))
        for index in 4...9 {
            let invitation = Self.invitation("guest\(index)", from: "10.0.0.\(index)")
            waiting.append(Task { await questions.ask(invitation, console: console) })
        }
        // Eight wait now (two from the /64, six from IPv4 addresses): the ninth is turned away.
        #expect(await eventually { questions.waitingCount == 8 })
        let ninth = await questions.ask(Self.invitation("guest10", from: "10.0.0.10"), console: console)
        #expect(ninth == .decline(reason: "the host is being asked about 8 players already; try again in a minute"))
        questions.declineAll()
        for task in waiting { #expect(await task.value == .decline(reason: "the host is leaving")) }
    }

    @Test("A network the host said no to is turned away at once for a minute; a question unanswered for a minute is withdrawn, its inviter told, and the host's next answer is not taken for the question after it")
    func noesAndUnansweredQuestions() async throws {
        let clock = ManualClock()
        let questions = JoinQuestions(clock: clock)
        let console = ScriptedConsole()
        let first = Task { await questions.ask(Self.invitation("mallory", from: "10.0.0.66"), console: console) }
        #expect(await eventually { console.lines.contains { $0.contains("mallory wants to join") } }, "\(console.lines)")
        #expect(questions.answer("n", console: console))
        #expect(await first.value == .decline(reason: "the host said no"))
        let again = await questions.ask(Self.invitation("mallory", from: "10.0.0.66"), console: console)
        #expect(again == .decline(reason: "the host said no to a player from your network address less than a minute ago; try again later"))
        clock.advance(by: .seconds(59))
        #expect(await questions.ask(Self.invitation("mallory", from: "10.0.0.66"), console: console) == again)

        // A minute after the no, mallory may ask again; the host lets the question wait.
        clock.advance(by: .seconds(1))
        let unanswered = Task { await questions.ask(Self.invitation("mallory", from: "10.0.0.66"), console: console) }
        #expect(await eventually { questions.waitingCount == 1 })
        clock.advance(by: .seconds(60))
        // Whoever asks next finds it withdrawn, and is shown instead.
        let bobs = Task { await questions.ask(Self.invitation("bob", from: "10.0.0.2"), console: console) }
        #expect(await unanswered.value == .decline(reason: JoinQuestions.unansweredReason))
        #expect(await eventually { console.lines.contains { $0.contains("bob wants to join") } }, "\(console.lines)")
        #expect(console.lines.contains(JoinQuestions.withdrawnLine), "\(console.lines)")

        // Bob's question waits a minute too; a y typed after that is not bob's, nor anyone's.
        let carols = Task { await questions.ask(Self.invitation("carol", from: "10.0.0.3"), console: console) }
        #expect(await eventually { questions.waitingCount == 2 })
        clock.advance(by: .seconds(60))
        #expect(questions.answer("y", console: console))
        #expect(await bobs.value == .decline(reason: JoinQuestions.unansweredReason))
        #expect(await carols.value == .decline(reason: JoinQuestions.unansweredReason))
        #expect(questions.waitingCount == 0)
        #expect(console.lines.filter { $0 == JoinQuestions.withdrawnLine }.count == 2, "\(console.lines)")
    }
}
