import EventBus
import Foundation
import GuessnumGame
import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Testing

/// A player whose link drops keeps their seat for the grace period: away, then back with the
/// same name and guesses; or freed when the time is up. A goodbye is not a drop.
@Suite("Seats held for dropped players", .timeLimit(.minutes(2)))
struct AwaySeatTests {
    /// Links are dropped with a reset (both sides hear of it at once), so the sessions need no
    /// quick heartbeats: a machine busy with the rest of the suite does not lose a link by itself.
    static var sessionConfiguration: SessionConfiguration { .notAboutTimeouts }

    /// A started host game over `network` with the given grace period and seats.
    static func host(
        _ scope: SessionScope, network: InMemoryNetwork, grace: Duration, maximumPlayers: Int = 10
    ) async throws -> (GameMaster, Endpoint) {
        let session = scope.session(localPeer: peer("alice"), transport: network, configuration: sessionConfiguration)
        var configuration = GameConfiguration(range: .standard, secretSource: .fixed(42))
        configuration.awayGracePeriod = grace
        configuration.maximumPlayers = maximumPlayers
        let master = try GameMaster(session: session, configuration: configuration)
        master.start()
        let port = try await session.startListening(policy: .custom { master.admission(of: $0) })
        return (master, try Endpoint(host: InMemoryNetwork.host, port: port))
    }

    /// `player` joining over a new session (as a program started again would); waits for the welcome.
    static func join(_ player: PeerID, _ scope: SessionScope, network: InMemoryNetwork, at endpoint: Endpoint) async throws -> (Session, GuestGame) {
        let session = scope.session(localPeer: player, transport: network, configuration: sessionConfiguration)
        let game = GuestGame(session: session)
        let welcomes = EventLog(game.events, .welcomed)
        let outcome = try await session.invite(endpoint)
        guard case .connected = outcome else { throw TestFailure("\(player.displayName) could not join: \(outcome)") }
        guard await welcomes.first(where: { _ in true }) != nil else { throw TestFailure("\(player.displayName) was never welcomed") }
        return (session, game)
    }

    @Test("Dropped, the player is away with the seat, name and guesses kept; back, the same; past the grace period, gone")
    func awayAndBack() async throws {
        try await withSessions { scope in
            let network = InMemoryNetwork()
            let (master, endpoint) = try await Self.host(scope, network: network, grace: .seconds(2))
            defer { master.stop() }
            let aways = EventLog(master.events, .playerAway)
            let backs = EventLog(master.events, .playerBack)
            let leaves = EventLog(master.events, .playerLeft)
            let bob = peer("bob")

            let (_, game) = try await Self.join(bob, scope, network: network, at: endpoint)
            #expect(try game.submit(line: "50") == .guess(50))
            #expect(await eventually { master.players.first?.guessesThisRound == 1 })

            network.resetConnections(toPort: endpoint.port)
            let away = try #require(await aways.first { $0.player.id == bob.identity }, "bob is away")
            #expect(away.holdSeconds == 2)
            #expect(master.players.map(\.player.name) == ["bob"] && master.players.first?.isAway == true)
            #expect(master.players.first?.guessesThisRound == 1)
            #expect(leaves.all.isEmpty)

            let (_, again) = try await Self.join(bob, scope, network: network, at: endpoint)
            #expect(await backs.first { $0.player.name == "bob" } != nil)
            #expect(master.players.first?.isAway == false)
            #expect(master.players.first?.guessesThisRound == 1, "the round's guesses are still bob's")
            #expect(again.view.you?.name == "bob")

            network.resetConnections(toPort: endpoint.port)
            #expect(await aways.count(atLeast: 2) { $0.player.id == bob.identity } == 2)
            let left = try #require(await leaves.first(within: .seconds(10)) { $0.player.id == bob.identity }, "the seat is freed")
            #expect(left.playerCount == 0 && left.removedByHost == nil)
            #expect(master.players.isEmpty)
        }
    }

    @Test("A player who says goodbye leaves at once: a goodbye is not a drop")
    func goodbyeIsNotADrop() async throws {
        try await withSessions { scope in
            let network = InMemoryNetwork()
            let (master, endpoint) = try await Self.host(scope, network: network, grace: .seconds(60))
            defer { master.stop() }
            let aways = EventLog(master.events, .playerAway)
            let leaves = EventLog(master.events, .playerLeft)
            let (session, _) = try await Self.join(peer("bob"), scope, network: network, at: endpoint)
            await session.disconnect()
            #expect(await leaves.first { $0.player.name == "bob" } != nil)
            #expect(aways.all.isEmpty)
            #expect(master.players.isEmpty)
        }
    }

    @Test("A held seat counts toward the limit and is kept for its player: a newcomer finds the game full, the player gets back in")
    func heldSeatCounts() async throws {
        try await withSessions { scope in
            let network = InMemoryNetwork()
            let (master, endpoint) = try await Self.host(scope, network: network, grace: .seconds(60), maximumPlayers: 1)
            defer { master.stop() }
            let aways = EventLog(master.events, .playerAway)
            let bob = peer("bob")
            _ = try await Self.join(bob, scope, network: network, at: endpoint)
            network.resetConnections(toPort: endpoint.port)
            #expect(await aways.first { $0.player.id == bob.identity } != nil)

            let carol = scope.session(localPeer: peer("carol"), transport: network, configuration: Self.sessionConfiguration)
            #expect(try await carol.invite(endpoint) == .declined(reason: "the game is full"))
            _ = try await Self.join(bob, scope, network: network, at: endpoint)
            #expect(master.players.map(\.player.name) == ["bob"] && master.players.first?.isAway == false)
        }
    }

    @Test("The host removing an away player frees the seat at once, announced as a removal")
    func removingAnAwayPlayer() async throws {
        try await withSessions { scope in
            let network = InMemoryNetwork()
            let (master, endpoint) = try await Self.host(scope, network: network, grace: .seconds(60))
            defer { master.stop() }
            let aways = EventLog(master.events, .playerAway)
            let leaves = EventLog(master.events, .playerLeft)
            let bob = peer("bob")
            _ = try await Self.join(bob, scope, network: network, at: endpoint)
            network.resetConnections(toPort: endpoint.port)
            #expect(await aways.first { $0.player.id == bob.identity } != nil)
            try master.remove(named: "bob")
            let left = try #require(await leaves.first { $0.player.id == bob.identity })
            #expect(left.removedByHost == true)
            #expect(master.players.isEmpty)
        }
    }
}
