import Foundation
import Multipeer
import MultipeerNIO
import MultipeerTestSupport
import MultipeerTesting
@testable import Rooms
import RockPaperScissors
import Testing
import TicTacToe

/// A room running tic-tac-toe between real sessions: a host and two guests, over the in-memory
/// network and over TCP on loopback.
@Suite("A room over sessions", .timeLimit(.minutes(1)))
struct RoomOverSessionTests {
    enum Backend: String, CaseIterable, CustomStringConvertible {
        case inMemory = "in-memory", tcp = "TCP"
        var description: String { rawValue }
    }

    /// Waits are bounded so that a regression fails the test instead of hanging it.
    var deadline: ContinuousClock.Instant { .now + .seconds(30) }

    @Test("Two guests play a whole round: a refused move is told to the mover, chat is relayed, the winner is credited everywhere", arguments: Backend.allCases)
    func wholeRound(backend: Backend) async throws {
        try await withSessions { scope in
            let memory = InMemoryNetwork()
            func transport() -> any Transport { backend == .tcp ? TCPTransport(bindHost: "127.0.0.1") : memory }
            let hostSession = scope.session(localPeer: peer("alice"), transport: transport())
            var configuration = RoomConfiguration()
            configuration.pauseBetweenRounds = .seconds(600)  // one round is the test
            let host = RoomHost(session: hostSession, rules: TicTacToeRules(), configuration: configuration)
            host.start()
            defer { host.stop() }
            let port = try await hostSession.startListening(policy: .custom { host.admission(of: $0) })
            let endpoint = try Endpoint(host: backend == .tcp ? "127.0.0.1" : InMemoryNetwork.host, port: port)

            var guests: [RoomGuest<TicTacToeRules>] = []
            for name in ["bob", "carol"] {
                let session = scope.session(localPeer: peer(name), transport: transport())
                let guest = RoomGuest<TicTacToeRules>(session: session)
                guests.append(guest)
                let outcome = try await session.invite(endpoint, context: guest.joinRequest.context)
                #expect(outcome == .connected(hostSession.localPeer))
                #expect(await guest.state(until: \.isWelcomed, before: deadline).isWelcomed, "\(name) is welcomed")
            }
            defer { for guest in guests { guest.stop() } }
            let rules = await host.rules(until: { $0.view(for: nil).x != nil && $0.view(for: nil).o != nil }, before: deadline)
            let view = rules.view(for: nil)
            let x = try #require(guests.first { $0.session.localPeer.identity == view.x?.id })
            let o = try #require(guests.first { $0.session.localPeer.identity == view.o?.id })

            func play(_ guest: RoomGuest<TicTacToeRules>, _ square: Int) async throws {
                let before = host.rules.view(for: nil).board
                try guest.play(.place(square: square))
                await host.rules(until: { $0.view(for: nil).board != before }, before: deadline)
            }
            try await play(x, 1)
            try o.play(.place(square: 1))
            let refused = await o.state(until: { $0.lastRefusal != nil }, before: deadline).lastRefusal
            #expect(refused == .squareTaken)
            try await play(o, 4)
            try await play(x, 2)
            try await play(o, 5)
            try o.say("gg soon")
            try await play(x, 3)

            let winner = x.session.localPeer.identity
            #expect(host.scores.map(\.player.id) == [winner])
            for guest in guests {
                let state = await guest.state(until: { $0.scores.first?.player.id == winner }, before: deadline)
                #expect(state.scores.map(\.wins) == [1], "\(guest.session.localPeer.displayName) reads the score")
                let seen = await guest.state(until: { $0.view?.phase == .won(mark: .x, line: [1, 2, 3].compactMap(Square.init)) }, before: deadline)
                #expect(seen.view?.board[Square(3)!] == .x, "the view shows the winning mark")
            }
            let won: @Sendable (RoomGuestState<TicTacToeRules>) -> Bool = { $0.gameEvents.contains { if case .won = $0 { true } else { false } } }
            #expect(won(await o.state(until: won, before: deadline)), "the win reached the loser as an event")
            var relayed = false
            for await event in x.events {
                if case .item(.chat(let line)) = event, line.from.id == o.session.localPeer.identity, line.text == "gg soon" {
                    relayed = true
                    break
                }
            }
            #expect(relayed, "the chat line reached the other guest")
        }
    }
}

extension RoomOverSessionTests {
    /// In memory only: that network can drop links without a goodbye, as a Wi-Fi blip does (the
    /// test LAN does it to real processes over TCP).
    @Test("A player who never moves holds the round for the turn time only: everyone reads the countdown, then the other player wins it")
    func stalledTurn() async throws {
        try await withSessions { scope in
            let memory = InMemoryNetwork()
            let (host, hostSession, _, guests) = try await roundOfTwo(scope, on: memory)
            defer { host.stop(); for guest in guests { guest.stop() } }
            let (x, o) = try await board(of: host, among: guests)

            // X stalls. The clock is the host's: it moves only as the test moves it.
            await memory.advanceTime(by: .seconds(50))
            var warned: TurnClockNotice?
            for await event in o.events {
                if case .item(.turnClock(let notice)) = event {
                    warned = notice
                    break
                }
            }
            #expect(warned?.player.id == x.session.localPeer.identity && warned?.secondsLeft == 10, "\(String(describing: warned))")
            #expect(host.rules.roundResult == nil, "still X's turn")
            await memory.advanceTime(by: .seconds(10))
            let oID = o.session.localPeer.identity
            let ended = await o.state(until: { $0.scores.first?.player.id == oID }, before: deadline)
            #expect(ended.scores.map(\.wins) == [1], "O is credited")
            #expect(ended.gameEvents.contains { if case .outOfTime(let late, let winner) = $0 { late.id == x.session.localPeer.identity && winner.id == oID } else { false } })
            #expect(hostSession.connectedPeers.count == 2, "nobody was dropped for it")
        }
    }

    @Test("Links that drop mid-round keep their seats and the turn: back with their resume points, the players are replayed what they missed and play on")
    func droppedAndBack() async throws {
        try await withSessions { scope in
            let memory = InMemoryNetwork()
            let (host, hostSession, endpoint, guests) = try await roundOfTwo(scope, on: memory)
            defer { host.stop(); for guest in guests { guest.stop() } }
            let port = endpoint.port
            let (x, o) = try await board(of: host, among: guests)
            try x.play(.place(square: 5))
            await host.rules(until: { $0.view(for: nil).turn?.id == o.session.localPeer.identity }, before: deadline)

            // Both links drop without a goodbye; the host chats meanwhile; both come back with what they have.
            let had = o.current.lastSequence
            memory.resetConnections(toPort: port)
            for guest in guests {
                await host.rules(until: { _ in hostSession.state(of: guest.session.localPeer) == .notConnected }, before: deadline)
            }
            try host.say("still there?")
            for guest in guests {
                let back = try await guest.session.invite(endpoint, context: guest.joinRequest.context)
                #expect(back == .connected(hostSession.localPeer))
            }
            let caughtUp = await o.state(until: { $0.lastSequence > had && $0.view?.isMyTurn == true }, before: deadline)
            #expect(caughtUp.view?.board[Square(5)!] == .x, "the board as it was")
            #expect(host.players.map(\.name).sorted() == ["bob", "carol"], "the same seats, no second ones")
            var replayed = false
            for await event in o.events {
                if case .item(.chat(let line)) = event, line.text == "still there?" {
                    replayed = true
                    break
                }
            }
            #expect(replayed, "what was said during the drop was replayed")
            try o.play(.place(square: 1))
            let played = await host.rules(until: { $0.view(for: nil).board[Square(1)!] == .o }, before: deadline)
            #expect(played.view(for: nil).board[Square(1)!] == .o, "O plays on after coming back")
        }
    }
}

extension RoomOverSessionTests {
    @Test("A room turns away a player of another game, and a guess-the-number player who names no game, with a sentence")
    func otherGames() async throws {
        try await withSessions { scope in
            let memory = InMemoryNetwork()
            let hostSession = scope.session(localPeer: peer("alice"), transport: memory)
            let host = RoomHost(session: hostSession, rules: TicTacToeRules())
            host.start()
            defer { host.stop() }
            let port = try await hostSession.startListening(policy: .custom { host.admission(of: $0) })
            let endpoint = try Endpoint(host: InMemoryNetwork.host, port: port)
            for (name, request) in [("bob", JoinRequest()), ("carol", JoinRequest(game: "rps"))] {
                let session = scope.session(localPeer: peer(name), transport: memory)
                let outcome = try await session.invite(endpoint, context: request.context)
                guard case .declined(let reason) = outcome else { Issue.record("\(name) was let in: \(outcome)"); continue }
                #expect(reason == GameError.wrongGame(hosted: TicTacToeRules.kind, asked: request.gameAsked).message)
                #expect(reason?.hasPrefix("this room plays tic-tac-toe, not ") == true)
                // So a player who did not know the game can read it from the decline and ask again.
                let kinds = [RPSRules.kind, TicTacToeRules.kind]
                #expect(GameError.hostedGame(declining: reason, asked: request.gameAsked, among: kinds) == TicTacToeRules.kind)
                #expect(GameError.hostedGame(declining: "the game is full", asked: request.gameAsked, among: kinds) == nil)
            }
            #expect(host.players.isEmpty)
        }
    }

    @Test("A private room tells its host's screen of the guests turned away for a wrong password, not of one asked for the password")
    func passwordRefusalsReachTheHost() async throws {
        try await withSessions { scope in
            let memory = InMemoryNetwork()
            let hostSession = scope.session(localPeer: peer("alice"), transport: memory)
            let host = RoomHost(session: hostSession, rules: TicTacToeRules(), password: try GamePassword("correct horse"))
            host.start()
            defer { host.stop() }
            let port = try await hostSession.startListening(policy: .custom { host.admission(of: $0) })
            let mallory = scope.session(localPeer: peer("mallory"), transport: memory)
            let endpoint = try Endpoint(host: InMemoryNetwork.host, port: port)
            let outcome = try await mallory.invite(endpoint, context: JoinRequest(game: "tictactoe").context)
            guard case .declined = outcome else { Issue.record("let in without a password: \(outcome)"); return }
            // Asked for the password (the first step of a join by address): no refusal. A wrong one is.
            let exchange = PasswordExchange.Guest(password: try GamePassword("battery staple"), guest: mallory.localPeer.identity, host: hostSession.localPeer.identity)
            var request = JoinRequest(game: "tictactoe")
            request.passwordExchange = exchange.opening
            // The guest finds the password wrong first and ends the invitation (hostRefused).
            let wrong = try? await mallory.invite(endpoint, context: request.context, answer: { exchange.answer(host: $0, challenge: $1) })
            #expect(wrong != .connected(hostSession.localPeer), "let in with a wrong password")
            var told: PasswordRefusals?
            for await activity in host.activity {
                if case .passwordRefusals(let refusals) = activity { told = refusals; break }
            }
            #expect(told?.counts == [.wrong: 1] && told?.isSummary == false, "the first refusal of the minute, told at once: \(String(describing: told))")
        }
    }

    /// A room of tic-tac-toe hosted by alice on `memory` (one round: the next waits 10 minutes),
    /// and bob and carol in it, welcomed.
    func roundOfTwo(_ scope: SessionScope, on memory: InMemoryNetwork) async throws
        -> (RoomHost<TicTacToeRules>, Session, Endpoint, [RoomGuest<TicTacToeRules>]) {
        let hostSession = scope.session(localPeer: peer("alice"), transport: memory)
        var configuration = RoomConfiguration()
        configuration.pauseBetweenRounds = .seconds(600)
        let host = RoomHost(session: hostSession, rules: TicTacToeRules(), configuration: configuration)
        host.start()
        let port = try await hostSession.startListening(policy: .custom { host.admission(of: $0) })
        let endpoint = try Endpoint(host: InMemoryNetwork.host, port: port)
        var guests: [RoomGuest<TicTacToeRules>] = []
        for name in ["bob", "carol"] {
            let guest = RoomGuest<TicTacToeRules>(session: scope.session(localPeer: peer(name), transport: memory))
            guests.append(guest)
            #expect(try await guest.session.invite(endpoint, context: guest.joinRequest.context) == .connected(hostSession.localPeer))
            await guest.state(until: \.isWelcomed, before: deadline)
        }
        return (host, hostSession, endpoint, guests)
    }

    /// The guests playing X and O, once the round has seated them.
    func board(of host: RoomHost<TicTacToeRules>, among guests: [RoomGuest<TicTacToeRules>]) async throws
        -> (x: RoomGuest<TicTacToeRules>, o: RoomGuest<TicTacToeRules>) {
        let view = await host.rules(until: { $0.view(for: nil).x != nil }, before: deadline).view(for: nil)
        let x = try #require(guests.first { $0.session.localPeer.identity == view.x?.id })
        let o = try #require(guests.first { $0.session.localPeer.identity == view.o?.id })
        return (x, o)
    }
}
