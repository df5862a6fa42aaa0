import EventBus
import Foundation
import GuessnumGame
import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Testing

@Suite("A guest's game over the in-memory network", .timeLimit(.minutes(1)))
struct GuestGameTests {
    func configuration(maximumPlayers: Int = 10_000) -> GuessHosting {
        var configuration = GuessHosting(secretSource: .fixed(42))
        configuration.room.maximumPlayers = maximumPlayers
        configuration.room.pauseBetweenRounds = .seconds(60)
        return configuration
    }

    @Test("A guest game created after connecting asks for the welcome it missed")
    func lateStart() async throws {
        try await withSessions { scope in
            try await withGame(.inMemory, configuration: configuration()) { game in
                let bob = try await game.join("bob")
                try bob.game.guess(10)
                let session = scope.session(localPeer: peer("carol"), transport: game.memory)
                let arrivals = EventLog(session.events, .dataReceived)
                #expect(try await session.invite(game.endpoint) == .connected(game.host.localPeer))
                // The first welcome arrives before any guest game exists to see it.
                #expect(await arrivals.first { $0.messageType == WelcomeMessage.messageType } != nil, "the first welcome went by")
                let carol = GuestGame(session: session, host: game.host.localPeer)
                let welcomes = EventLog(carol.events, .welcomed)
                let welcome = try #require(await welcomes.first { _ in true })
                #expect(welcome.you.name == "carol")
                #expect(arrivals.all.filter { $0.messageType == WelcomeMessage.messageType }.count == 2, "a second welcome, asked for")
                #expect(await eventually { carol.history.map(\.guess) == [10] })
                #expect(carol.view.isWelcomed)
                #expect(carol.round == 1)
                carol.stop()
                await session.disconnect()
            }
        }
    }

    @Test("Guessing before joining says what to do")
    func notJoined() async throws {
        try await withSessions { scope in
            let session = scope.session(localPeer: peer("bob"), transport: InMemoryNetwork())
            let game = GuestGame(session: session)
            #expect(throws: GameError.notJoined) { try game.submit(line: "50") }
            let blank = try game.submit(line: "")
            #expect(blank == .ignored, "a blank line sends nothing, so it cannot fail")
            await session.disconnect()
        }
    }

    @Test("A renamed guest is shown under a unique new name everywhere")
    func rename() async throws {
        try await withGame(.inMemory, configuration: configuration()) { game in
            let bob = try await game.join("bob")
            let carol = try await game.join("carol")
            let renames = EventLog(carol.game.events, .playerRenamed)
            try bob.game.rename(to: "CAROL")
            let renamed = try #require(await renames.first { _ in true })
            #expect(renamed.player.name == "CAROL (2)")
            #expect(renamed.previousName == "bob")
            #expect(await eventually { bob.game.view.you?.name == "CAROL (2)" })
            #expect(throws: GameError.self) { try bob.game.rename(to: "bad\nname") }
            try bob.game.say("hi")
            #expect(await carol.chats.first { _ in true }?.displayText == "CAROL (2): hi")
        }
    }

    @Test("A full game turns a newcomer away with a goodbye that says why")
    func full() async throws {
        try await withSessions { scope in
            try await withGame(.inMemory, configuration: configuration(maximumPlayers: 1)) { game in
                _ = try await game.join("bob")
                let session = scope.session(localPeer: peer("carol"), transport: game.memory)
                let carol = GuestGame(session: session)
                let hostLeft = EventLog(carol.events, .hostLeft)
                _ = try await session.invite(game.endpoint)
                let left = try #require(await hostLeft.first { _ in true })
                guard case .goodbye(let reason) = left.reason else {
                    Issue.record("expected a goodbye, got \(String(describing: left.reason))")
                    return
                }
                #expect(reason?.contains("The game is full") == true)
                #expect(game.room.playerCount == 1)
                #expect(throws: GameError.self) { try carol.guess(5) }
                await session.disconnect()
            }
        }
    }

    @Test("A host whose reveal breaks its commitment, or whose verdicts lied, is called dishonest")
    func dishonestHost() async throws {
        try await withSessions { scope in
            let network = InMemoryNetwork()
            let host = scope.session(localPeer: peer("mallory"), transport: network)
            let port = try await host.startListening()
            let guestSession = scope.session(localPeer: peer("bob"), transport: network)
            let guest = GuestGame(session: guestSession)
            let checks = EventLog(guest.events, .fairnessChecked)
            #expect(try await guestSession.invite(Endpoint(host: InMemoryNetwork.host, port: port)) == .connected(host.localPeer))

            let bob = PlayerRef(id: guestSession.localPeer.identity, name: "bob")
            let salt = Salt.random()
            let committed = Commitment(secret: 42, salt: salt)
            let state = GameState(
                round: 1, range: .standard, commitment: committed, history: [], earlierJudgements: 0, lastSequence: 0,
                players: [bob], playerCount: 1, scoreboard: [], reveal: nil)
            try host.send(WelcomeMessage(you: bob, game: state), to: [guestSession.localPeer])
            // Round 1: the host claims the secret was 43 after committing to 42.
            try host.send(HistoryBatch(items: [
                .roundWon(RoundWon(sequence: 1, round: 1, range: .standard, commitment: committed, winner: nil, secret: 43, salt: salt, winningGuesses: nil, totalGuesses: 0)),
            ]), to: [guestSession.localPeer])
            let first = try #require(await checks.first { $0.round == 1 })
            #expect(!first.isHonest)
            #expect(first.description.contains("the host cheated"))

            // Round 2: the reveal matches, but an earlier verdict lied.
            let salt2 = Salt.random()
            let committed2 = Commitment(secret: 42, salt: salt2)
            try host.send(HistoryBatch(items: [
                .roundStarted(RoundStarted(sequence: 2, round: 2, range: .standard, commitment: committed2)),
                .verdict(JudgedGuess(sequence: 3, round: 2, judgement: Judgement(player: bob, guess: 50, verdict: .tooLow))),
                .roundWon(RoundWon(sequence: 4, round: 2, range: .standard, commitment: committed2, winner: nil, secret: 42, salt: salt2, winningGuesses: nil, totalGuesses: 1)),
            ]), to: [guestSession.localPeer])
            let second = try #require(await checks.first { $0.round == 2 })
            #expect(second.problems == ["bob's guess 50 was called too low, but the secret 42 is not greater"])
            #expect(guest.fairnessChecks.mapValues(\.isHonest) == [1: false, 2: false])
            guest.stop()
            await guestSession.disconnect()
            await host.disconnect()
        }
    }

    @Test("Messages from a peer other than the host are ignored")
    func strangersIgnored() async throws {
        try await withSessions { scope in
            try await withGame(.inMemory, configuration: configuration()) { game in
                let bob = try await game.join("bob")
                let stranger = scope.session(localPeer: peer("stranger"), transport: game.memory)
                let bobPort = try await bob.session.startListening()
                #expect(try await stranger.invite(Endpoint(host: InMemoryNetwork.host, port: bobPort)) == .connected(bob.session.localPeer))
                try stranger.send(HistoryBatch(items: [.chat(RelayedChat(sequence: 999, from: PlayerRef(id: UUID(), name: "x"), text: "spoof"))]), to: [bob.session.localPeer])
                #expect(await bob.log.first { $0.level == .notice && $0["peer"] == "stranger" } != nil)
                #expect(bob.chats.all.isEmpty)
                await stranger.disconnect()
            }
        }
    }
}
