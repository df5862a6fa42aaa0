import Foundation
import GuessnumApp
import Multipeer
import MultipeerTesting
import MultipeerTestSupport
import Testing

/// Remembered games in the list of games: a game joined before that discovery does not list is
/// tried where it was, listed as remembered when its host answers, and joined like any other.
@Suite("Remembered games in the list", .timeLimit(.minutes(1)))
struct RememberedGamesAppTests {
    func temporaryFile() -> RememberedGames {
        RememberedGames(fileURL: Scratch.path("guessnum-remembered").appendingPathComponent("remembered_games.json"))
    }

    @Test("A game joined once is remembered; hidden from discovery (/visible off) it is still listed to its past player, as remembered, and joined; the host is told so")
    func hiddenGameFoundWhereItWas() async throws {
        let game = try await AppHarness()
        let remembered = temporaryFile()
        defer { try? FileManager.default.removeItem(at: remembered.fileURL.deletingLastPathComponent()) }
        let bob = try game.player("bob", gameName: "alice", rememberedGames: remembered)
        #expect(await bob.console.line(containing: "Welcome, bob!") != nil, "\(bob.console.lines)")
        _ = await bob.stop()

        game.hostInbox.post(.typed("/visible off"))
        #expect(await game.hostConsole.line(containing: "The game is no longer announced: `guessnum join` lists it only to players who joined it before") != nil, "\(game.hostConsole.transcript)")
        // bob's program another time: discovery lists nothing, the remembered game answers.
        let again = try game.player("bob", rememberedGames: remembered)
        let listed = await again.console.line(containing: "1) alice — remembered: not announced here, but answers where you joined it (range, players and round unknown)")
        #expect(listed != nil, "\(again.console.lines)")
        #expect(game.room.playerCount == 0, "a probe is not a join")
        again.type("1")
        #expect(await again.console.line(containing: "Welcome, bob!") != nil, "\(again.console.lines)")
        _ = await again.stop()
        #expect(await game.stopHost() == nil)
    }

    @Test("A game joined once is remembered; where discovery is unavailable it is listed, as remembered, and joined; one that is gone is not listed")
    func foundWhereItWasWithoutDiscovery() async throws {
        let game = try await AppHarness()
        let remembered = temporaryFile()
        defer { try? FileManager.default.removeItem(at: remembered.fileURL.deletingLastPathComponent()) }
        // Somewhere nothing answers any more: never listed.
        try remembered.remember("gone", identity: UUID(), endpoints: [try Endpoint(host: InMemoryNetwork.host, port: 1)], isPrivate: false)

        let bob = try game.player("bob", gameName: "alice", rememberedGames: remembered)
        #expect(await bob.console.line(containing: "Welcome, bob!") != nil, "\(bob.console.lines)")
        _ = await bob.stop()
        let saved = remembered.read().games
        #expect(saved.first?.name == "alice" && saved.first?.identity == game.room.session.localPeer.identity, "\(saved)")

        // bob's program another time, on a machine without discovery: the remembered game answers.
        game.network.discovery.isAvailable = false
        let again = try game.player("bob", rememberedGames: remembered)
        let listed = await again.console.line(containing: "1) alice — remembered: not announced here, but answers where you joined it (range, players and round unknown)")
        #expect(listed != nil, "\(again.console.lines)")
        #expect(!again.console.lines.contains { $0.contains("gone") }, "\(again.console.lines)")
        #expect(game.room.playerCount == 0, "a probe is not a join")
        again.type("1")
        #expect(await again.console.line(containing: "Welcome, bob!") != nil, "\(again.console.lines)")
        _ = await again.stop()
        #expect(await game.stopHost() == nil)
    }
}
