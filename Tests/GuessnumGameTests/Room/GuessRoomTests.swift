import Foundation
@testable import GuessnumGame
import Multipeer
import MultipeerNIO
import MultipeerTestSupport
import MultipeerTesting
import Testing

/// Guess-the-number run by the room layer (``RoomHost`` of ``GuessRules``) between real
/// sessions: a player of the game as it was (``GuestGame``) plays it beside a room guest.
@Suite("Guess-the-number in a room", .timeLimit(.minutes(1)))
struct GuessRoomTests {
    var deadline: ContinuousClock.Instant { .now + .seconds(30) }

    @Test("A player of the game as it was plays a whole round against the room's host: welcomed, judged at once, out of range told alone, chat, the win revealed and checked fair, the scores", arguments: Network.allCases)
    func wholeRound(network: Network) async throws {
        try await withSessions { scope in
            let memory = InMemoryNetwork()
            func transport() -> any Transport { network == .tcp ? TCPTransport(bindHost: "127.0.0.1") : memory }
            let hostSession = scope.session(localPeer: peer("alice"), transport: transport())
            var configuration = RoomConfiguration()
            configuration.pauseBetweenRounds = .seconds(600)
            let rules = GuessRules(settings: GuessSettings(range: try GuessRange(1, 100)), secretSource: .fixed(42))
            let host = RoomHost(session: hostSession, rules: rules, configuration: configuration, moveThrottle: Throttle(rate: 20, burst: 5))
            host.start()
            defer { host.stop() }
            let port = try await hostSession.startListening(policy: .custom { host.admission(of: $0) })
            let endpoint = try Endpoint(host: network == .tcp ? "127.0.0.1" : InMemoryNetwork.host, port: port)

            let bob = Guest(session: scope.session(localPeer: peer("bob"), transport: transport()))
            defer { bob.game.stop() }
            #expect(try await bob.session.invite(endpoint) == .connected(hostSession.localPeer), "no game named: guess-the-number's")
            let welcome = try #require(await bob.welcomes.first { _ in true })
            let range = try GuessRange(1, 100)
            #expect(welcome.you.name == "bob" && welcome.game.round == 1 && welcome.game.range == range)
            #expect(welcome.game.hostChoseSecret == true, "a fixed secret is the host's choice, and the player is told")

            let carol = RoomGuest<GuessRules>(session: scope.session(localPeer: peer("carol"), transport: transport()))
            defer { carol.stop() }
            #expect(try await carol.session.invite(endpoint, context: carol.joinRequest.context) == .connected(hostSession.localPeer))
            #expect(await carol.state(until: \.isWelcomed, before: deadline).view?.round == 1)
            #expect(await bob.joins.first { $0.player.name == "carol" } != nil, "bob sees carol join")

            try bob.game.guess(50)
            let verdict = try #require(await bob.verdicts.first { $0.guess == 50 })
            #expect(verdict.verdict == .tooHigh && verdict.player.name == "bob")
            var broadcastNumber: UInt64?
            for await event in carol.events {
                if case .item(.game(let sequence, .verdict(let line))) = event, line.guess == 50 { broadcastNumber = sequence; break }
            }
            #expect(broadcastNumber == verdict.sequence && verdict.sequence > 0, "bob's own verdict is numbered as its broadcast copy")

            try carol.play(500)
            var carolError: GameError?
            for await event in carol.events {
                if case .error(let error) = event { carolError = error; break }
            }
            #expect(carolError?.code == .guessOutOfRange, "out of range, told to carol as the game always did")
            #expect(carolError?.message == "500 is out of range: guess a number from 1 to 100.")

            try carol.say("close, bob")
            #expect(await bob.chats.first { $0.text == "close, bob" && $0.from.name == "carol" } != nil)

            try bob.game.guess(42)
            let won = try #require(await bob.roundsWon.first { _ in true })
            #expect(won.winner?.name == "bob" && won.secret == 42 && won.winningGuesses == 2 && won.totalGuesses == 2)
            let fair = try #require(await bob.fairness.first { $0.round == 1 })
            #expect(fair.problems.isEmpty, "every verdict bob read checks out against the reveal")
            #expect(await eventually { bob.game.scoreboard.first?.player.name == "bob" && bob.game.scoreboard.first?.wins == 1 })
            #expect(host.scores.map(\.player.name) == ["bob"] && host.rules.scoreboard.entry(for: bob.id)?.guesses == 2)
            #expect(bob.errors.all.isEmpty, "bob was told nothing of carol's mistake")
        }
    }

    @Test("The host's new round over another range reveals the unfinished one; a range the fixed secret is not in is refused and changes nothing")
    func newRoundOverRange() async throws {
        try await withSessions { scope in
            let memory = InMemoryNetwork()
            let hostSession = scope.session(localPeer: peer("alice"), transport: memory)
            let host = RoomHost(session: hostSession, rules: GuessRules(settings: GuessSettings(), secretSource: .fixed(42)))
            host.start()
            defer { host.stop() }
            let port = try await hostSession.startListening(policy: .custom { host.admission(of: $0) })
            let bob = Guest(session: scope.session(localPeer: peer("bob"), transport: memory))
            defer { bob.game.stop() }
            #expect(try await bob.session.invite(Endpoint(host: InMemoryNetwork.host, port: port)) == .connected(hostSession.localPeer))
            #expect(await bob.welcomes.first { _ in true } != nil)

            #expect(throws: GameError.self) { try host.newRound { rules throws(GameError) in try rules.prepareRound(over: try GuessRange(1, 10)) } }
            #expect(host.round == 1 && host.rules.settings.range == .standard, "nothing changed")
            try host.newRound { rules throws(GameError) in try rules.prepareRound(over: try GuessRange(40, 50)) }
            let ended = try #require(await bob.roundsWon.first { $0.round == 1 })
            #expect(ended.winner == nil && ended.secret == 42, "the unfinished round is revealed")
            let started = try #require(await bob.roundsStarted.first { $0.round == 2 })
            let range = try GuessRange(40, 50)
            #expect(started.range == range)
            try bob.game.guess(45)
            #expect(await bob.verdicts.first { $0.guess == 45 }?.verdict == .tooHigh)
        }
    }
}
