import Foundation
@testable import GuessnumApp
import Multipeer
import MultipeerTestSupport
import Testing

/// Host names are compared as people see them: lookalikes, and a name Avahi suffixed because it
/// was taken, are one name — in the known hosts and for `--game`.
@Suite("Host names that look alike", .timeLimit(.minutes(1)))
struct HostNameTests {
    @Test("Names that look like “rt” are one name; visibly different ones are not", arguments: [
        ("Rt", true), ("rt ", true), ("r\u{0442}", true), ("rt #2", true), ("RT #17", true),
        ("rt #1", false), ("rt #", false), ("rt#2", false), ("rta", false), ("rť", false),
    ])
    func lookalikes(name: String, same: Bool) {
        #expect((HostName.key(name) == HostName.key("rt")) == same, "\(name)")
    }

    @Test("--game refuses two games whose names look alike, listing both, and joins neither")
    func twoLookalikeGames() async throws {
        let game = try await AppHarness(hostName: "rt")
        let impostor = try await AppHarness(network: game.network, hostName: "rt #2")
        // Both announced (each host prints its banner once its game is listed) before bob looks.
        #expect(await game.hostConsole.line(containing: "Hosting rt's game") != nil, "\(game.hostConsole.lines)")
        #expect(await impostor.hostConsole.line(containing: "Hosting rt #2's game") != nil, "\(impostor.hostConsole.lines)")
        let bob = try game.player("bob", gameName: "rt")
        let failure = await bob.run.value
        // One sentence, the program's last word (not the refusal, then "Could not join").
        #expect(failure?.exitCode == 3)
        #expect(failure?.message.hasPrefix("Not joined: 2 games have names that look like “rt”:") == true, "\(String(describing: failure))")
        #expect(failure?.message.contains("“rt”") == true && failure?.message.contains("“rt #2”") == true)
        #expect(!bob.console.lines.contains { $0.contains("Not joined") || $0.contains("Could not join") }, "\(bob.console.lines)")
        #expect(game.room.playerCount == 0 && impostor.room.playerCount == 0)
        // The suffixed name, read off its host's screen, names one game.
        let carol = try game.player("carol", gameName: "rt #2")
        #expect(await carol.console.line(containing: "Welcome, carol!") != nil, "\(carol.console.lines)")
        #expect(impostor.room.playerCount == 1)
        _ = await carol.stop()
        #expect(await impostor.stopHost() == nil)
        #expect(await game.stopHost() == nil)
    }

    @Test("--game refuses the only game when its name merely looks like the one asked for")
    func onlyALookalike() async throws {
        let impostor = try await AppHarness(hostName: "r\u{0442}")
        let bob = try impostor.player("bob", gameName: "rt")
        let failure = await bob.run.value
        #expect(failure?.exitCode == 3)
        #expect(failure?.message.hasPrefix("Not joined: no game is called “rt”, but “r\u{0442}” looks like it.") == true, "\(String(describing: failure))")
        #expect(impostor.room.playerCount == 0)
        #expect(await impostor.stopHost() == nil)
    }
}
