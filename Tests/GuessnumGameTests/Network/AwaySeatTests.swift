import EventBus
import Foundation
import GuessnumGame
import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Rooms
import Synchronization
import Testing

/// A player whose link drops keeps their seat for the grace period: away, then back with the
/// same name and guesses; or freed when the time is up. A goodbye is not a drop.
@Suite("Seats held for dropped players", .timeLimit(.minutes(2)))
struct AwaySeatTests {
    /// Links are dropped with a reset (both sides hear of it at once), so the sessions need no
    /// quick heartbeats: a machine busy with the rest of the suite does not lose a link by itself.
    static var sessionConfiguration: SessionConfiguration { .notAboutTimeouts }

    /// A started host room of guess-the-number, and the bus its ticks are posted on, over `network` with the given grace period and seats, in `session`
    /// (by default a new one).
    static func host(
        _ scope: SessionScope, network: InMemoryNetwork, grace: Duration, maximumPlayers: Int = 10, replayLimit: Int = 1_000,
        session given: Session? = nil
    ) async throws -> (RoomHost<GuessRules>, EventBus, Endpoint) {
        let session = given ?? hostSession(scope, network: network)
        var configuration = GuessHosting(range: .standard, secretSource: .fixed(42))
        configuration.room.awayGracePeriod = grace
        configuration.room.maximumPlayers = maximumPlayers
        configuration.room.replayLimit = replayLimit
        let (room, events) = try hostRoom(on: session, configuration: configuration)
        room.start()
        let port = try await session.startListening(policy: .custom { room.admission(of: $0) })
        return (room, events, try Endpoint(host: InMemoryNetwork.host, port: port))
    }

    /// The host's session, not started.
    static func hostSession(_ scope: SessionScope, network: InMemoryNetwork) -> Session {
        scope.session(localPeer: peer("alice"), transport: network, configuration: sessionConfiguration)
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

    /// Bob on a laptop of his own and carol beside him, both welcomed into `endpoint`'s game;
    /// what bob's game posts of chat and catch-ups, and what carol reads of chat, are logged.
    struct LaptopAndNeighbour {
        let laptop: InMemoryMachine
        let bob: PeerID
        let bobsSession: Session
        let game: GuestGame
        let chats: EventLog<RelayedChat>
        let caughtUp: EventLog<CaughtUp>
        let carol: GuestGame
        let carolsChats: EventLog<RelayedChat>

        init(_ scope: SessionScope, network: InMemoryNetwork, at endpoint: Endpoint, bob: PeerID = peer("bob")) async throws {
            laptop = network.machine()
            self.bob = bob
            bobsSession = scope.session(localPeer: bob, transport: laptop, configuration: AwaySeatTests.sessionConfiguration)
            game = GuestGame(session: bobsSession)
            chats = EventLog(game.events, .chat)
            caughtUp = EventLog(game.events, .caughtUp)
            guard case .connected = try await bobsSession.invite(endpoint) else { throw TestFailure("bob could not join") }
            guard await eventually({ [game] in game.view.isWelcomed }) else { throw TestFailure("bob was never welcomed") }
            (_, carol) = try await AwaySeatTests.join(peer("carol"), scope, network: network, at: endpoint)
            carolsChats = EventLog(carol.events, .chat)
        }

        /// Carol says `lines`; returns once the host has broadcast them (she reads them back).
        func carolSays(_ lines: [String]) async throws {
            let before = carolsChats.all.count
            for line in lines { try carol.say(line) }
            guard await carolsChats.count(atLeast: before + lines.count, where: { _ in true }) == before + lines.count else {
                throw TestFailure("carol's lines were not broadcast")
            }
        }
    }

    @Test("Dropped, the player is away with the seat, name and guesses kept; back, the same; past the grace period, gone")
    func awayAndBack() async throws {
        try await withSessions { scope in
            let network = InMemoryNetwork()
            let (room, events, endpoint) = try await Self.host(scope, network: network, grace: .seconds(2))
            defer { room.stop() }
            let aways = EventLog(events, .playerAway)
            let backs = EventLog(events, .playerBack)
            let leaves = EventLog(events, .playerLeft)
            let bob = peer("bob")

            let (_, game) = try await Self.join(bob, scope, network: network, at: endpoint)
            #expect(try game.submit(line: "50") == .guess(50))
            #expect(await eventually { room.seated.first?.guessesThisRound == 1 })

            network.resetConnections(toPort: endpoint.port)
            let away = try #require(await aways.first { $0.player.id == bob.identity }, "bob is away")
            #expect(away.holdSeconds == 2)
            #expect(room.seated.map(\.player.name) == ["bob"] && room.seated.first?.isAway == true)
            #expect(room.seated.first?.guessesThisRound == 1)
            #expect(leaves.all.isEmpty)

            let (_, again) = try await Self.join(bob, scope, network: network, at: endpoint)
            #expect(await backs.first { $0.player.name == "bob" } != nil)
            #expect(room.seated.first?.isAway == false)
            #expect(room.seated.first?.guessesThisRound == 1, "the round's guesses are still bob's")
            #expect(again.view.you?.name == "bob")

            network.resetConnections(toPort: endpoint.port)
            #expect(await aways.count(atLeast: 2) { $0.player.id == bob.identity } == 2)
            await network.advanceTime(by: .seconds(1))
            try await Task.sleep(for: .milliseconds(100))  // a few of the host's ticks
            #expect(leaves.all.isEmpty, "the seat is held for the whole grace period, by the session's clock")
            await network.advanceTime(by: .seconds(1) + .milliseconds(100))
            let left = try #require(await leaves.first(within: .seconds(30)) { $0.player.id == bob.identity }, "the seat is freed")
            #expect(left.playerCount == 0 && left.removedByHost == nil)
            #expect(room.seated.isEmpty)
        }
    }

    @Test("A player who says goodbye leaves at once: a goodbye is not a drop")
    func goodbyeIsNotADrop() async throws {
        try await withSessions { scope in
            let network = InMemoryNetwork()
            let (room, events, endpoint) = try await Self.host(scope, network: network, grace: .seconds(60))
            defer { room.stop() }
            let aways = EventLog(events, .playerAway)
            let leaves = EventLog(events, .playerLeft)
            let (session, _) = try await Self.join(peer("bob"), scope, network: network, at: endpoint)
            await session.disconnect()
            #expect(await leaves.first { $0.player.name == "bob" } != nil)
            #expect(aways.all.isEmpty)
            #expect(room.seated.isEmpty)
        }
    }

    @Test("A held seat counts toward the limit and is kept for its player: a newcomer finds the game full, the player gets back in")
    func heldSeatCounts() async throws {
        try await withSessions { scope in
            let network = InMemoryNetwork()
            let (room, events, endpoint) = try await Self.host(scope, network: network, grace: .seconds(60), maximumPlayers: 1)
            defer { room.stop() }
            let aways = EventLog(events, .playerAway)
            let bob = peer("bob")
            _ = try await Self.join(bob, scope, network: network, at: endpoint)
            network.resetConnections(toPort: endpoint.port)
            #expect(await aways.first { $0.player.id == bob.identity } != nil)

            let carol = scope.session(localPeer: peer("carol"), transport: network, configuration: Self.sessionConfiguration)
            #expect(try await carol.invite(endpoint) == .declined(reason: "the game is full"))
            _ = try await Self.join(bob, scope, network: network, at: endpoint)
            #expect(room.seated.map(\.player.name) == ["bob"] && room.seated.first?.isAway == false)
        }
    }

    @Test("The host removing an away player frees the seat at once, announced as a removal")
    func removingAnAwayPlayer() async throws {
        try await withSessions { scope in
            let network = InMemoryNetwork()
            let (room, events, endpoint) = try await Self.host(scope, network: network, grace: .seconds(60))
            defer { room.stop() }
            let aways = EventLog(events, .playerAway)
            let leaves = EventLog(events, .playerLeft)
            let bob = peer("bob")
            _ = try await Self.join(bob, scope, network: network, at: endpoint)
            network.resetConnections(toPort: endpoint.port)
            #expect(await aways.first { $0.player.id == bob.identity } != nil)
            try room.remove(named: "bob")
            let left = try #require(await leaves.first { $0.player.id == bob.identity })
            #expect(left.removedByHost == true)
            #expect(room.seated.isEmpty)
        }
    }

    @Test("A player who comes back saying what it has gets exactly what it missed; past the replay bound, a fresh welcome", arguments: [1_000, 2])
    func replayOrWelcome(replayLimit: Int) async throws {
        try await withSessions { scope in
            let network = InMemoryNetwork()
            let (room, events, endpoint) = try await Self.host(scope, network: network, grace: .seconds(60), replayLimit: replayLimit)
            defer { room.stop() }
            let aways = EventLog(events, .playerAway)
            let backs = EventLog(events, .playerBack)
            let players = try await LaptopAndNeighbour(scope, network: network, at: endpoint)
            let (bob, bobsSession, game, chats, caughtUp) = (players.bob, players.bobsSession, players.game, players.chats, players.caughtUp)

            players.laptop.unplug()
            #expect(await aways.first { $0.player.id == bob.identity } != nil)
            let had = game.view.lastSequence
            try await players.carolSays(["one", "two", "three"])
            players.laptop.plugIn()
            let outcome = try await bobsSession.invite(endpoint, context: JoinRequest(resumeAfter: had).context)
            #expect(outcome == .connected(room.session.localPeer))
            #expect(await backs.first { $0.player.id == bob.identity } != nil)

            if replayLimit >= 3 {
                let replay = try #require(await caughtUp.first { _ in true })
                #expect(replay.missed == 3, "the three chats; bob's own away line, replayed too, is no news to bob")
                #expect(await chats.count(atLeast: 3) { _ in true } == 3)
                #expect(chats.all.map(\.text) == ["one", "two", "three"], "in order, once each")
                #expect(game.view.replays == 1 && game.view.welcomes == 1)
            } else {
                #expect(await eventually { game.view.welcomes == 2 }, "more was missed than the host keeps: a welcome")
                #expect(game.view.replays == 0 && chats.all.isEmpty)
            }
            #expect(game.view.lastSequence >= had + 3)
        }
    }

    @Test("A player back on a new link before the host has given the seat back gets no batch before its replay: nothing missed is skipped")
    func noBatchBeforeTheReplay() async throws {
        try await withSessions { scope in
            let network = InMemoryNetwork()
            let bob = peer("bob")
            // Observers run in the order they came, on the thread that posts: this one, first,
            // keeps the game from hearing that bob's new link is up until carol's lines are out.
            let hostSession = Self.hostSession(scope, network: network)
            let seatBack = DispatchSemaphore(value: 0)
            let holding = Atomic<Bool>(false)
            let held = hostSession.events.observe(.stateChanged) { change in
                guard change.peer == bob, change.state == .connected, holding.load(ordering: .acquiring) else { return }
                _ = seatBack.wait(timeout: .now() + 30)
            }
            defer { held.cancel() }
            let (room, events, endpoint) = try await Self.host(scope, network: network, grace: .seconds(60), session: hostSession)
            defer { room.stop() }
            let aways = EventLog(events, .playerAway)
            let backs = EventLog(events, .playerBack)
            let players = try await LaptopAndNeighbour(scope, network: network, at: endpoint, bob: bob)
            let (bobsSession, game, chats, caughtUp) = (players.bobsSession, players.game, players.chats, players.caughtUp)

            players.laptop.unplug()
            #expect(await aways.first { $0.player.id == bob.identity } != nil)
            let had = game.view.lastSequence
            holding.store(true, ordering: .releasing)
            players.laptop.plugIn()
            let outcome = try await bobsSession.invite(endpoint, context: JoinRequest(resumeAfter: had).context)
            #expect(outcome == .connected(room.session.localPeer))
            // Bob's link is up at both ends; the game has not seated him yet.
            try await players.carolSays(["one", "two", "three"])
            seatBack.signal()
            #expect(await backs.first { $0.player.id == bob.identity } != nil)

            let replay = try #require(await caughtUp.first { _ in true })
            #expect(replay.missed == 3, "the three chats, in the replay (bob's own away line is no news to bob)")
            #expect(await chats.count(atLeast: 3) { _ in true } == 3)
            #expect(chats.all.map(\.text) == ["one", "two", "three"], "in order, once each")
            #expect(game.view.replays == 1 && game.view.welcomes == 1)
        }
    }

    @Test("Back in before the host noticed the drop: broadcasts on the new link wait for the catch-up the player asks for, so the lines sent into the dead link are not skipped")
    func hostThatDidNotNotice() async throws {
        try await withSessions { scope in
            let network = InMemoryNetwork()
            let (room, _, endpoint) = try await Self.host(scope, network: network, grace: .seconds(60))
            defer { room.stop() }
            let players = try await LaptopAndNeighbour(scope, network: network, at: endpoint)
            let (bobsSession, game, chats, caughtUp) = (players.bobsSession, players.game, players.chats, players.caughtUp)
            let hostLeft = EventLog(game.events, .hostLeft)

            // Bob's laptop sees its link fail; the host hears nothing and keeps sending into it.
            players.laptop.unplug(othersNotice: false)
            #expect(await hostLeft.first { _ in true } != nil)
            let had = game.view.lastSequence
            try await players.carolSays(["one", "two", "three"])
            players.laptop.plugIn()
            let outcome = try await bobsSession.invite(endpoint, context: JoinRequest(resumeAfter: had).context)
            #expect(outcome == .connected(room.session.localPeer))
            #expect(room.seated.allSatisfy { !$0.isAway }, "the host took the new link for the old one")

            // A broadcast on the new link reaches bob before he asks for what he missed.
            let batches = EventLog(bobsSession.events, .dataReceived)
            // Once carol reads her line, the tick that broadcast it is sent: bob's catch-up is asked after it.
            try await players.carolSays(["four"])
            #expect(await batches.first { $0.messageType == HistoryBatch.messageType } != nil)
            #expect(chats.all.isEmpty, "held until the catch-up")
            try game.requestCatchUp()
            let replay = try #require(await caughtUp.first { _ in true })
            #expect(replay.missed == 4, "the three lines sent into the dead link, and the fourth")
            #expect(await chats.count(atLeast: 4) { _ in true } == 4)
            #expect(chats.all.map(\.text) == ["one", "two", "three", "four"], "in order, once each")
        }
    }
}
