import Foundation
@testable import GuessnumApp
import GuessnumGame
@testable import Multipeer
import MultipeerTestSupport
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
        #expect(game.master.playerCount == 0)
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
}
