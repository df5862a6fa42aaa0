import Foundation
import GuessnumGame
import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Rooms
import Testing

/// A private game: the host admits a guest whose password exchange confirms, turns the others
/// away with a sentence, and says so in its advertisement; a guest refuses a host that cannot
/// confirm the password.
@Suite("Private games", .timeLimit(.minutes(2)))
struct PrivateGameTests {
    @Test("Without an exchange a guest is declined; with a wrong password it refuses the host itself; with the right one it plays")
    func admission() async throws {
        try await withSessions { scope in
            let network = InMemoryNetwork()
            let (host, room, endpoint) = try await privateGame(scope, network: network)
            defer { room.stop() }
            #expect(room.isPrivate && GameAdvertisement(of: room).isPrivate)
            #expect(GameAdvertisement(decoding: GameAdvertisement(of: room).discoveryInfo).isPrivate)

            func invite(_ name: String, password: String?, exchangeFor hostIdentity: UUID? = nil) async throws -> InvitationOutcome {
                let guest = scope.session(localPeer: peer(name), transport: network, configuration: .notAboutTimeouts)
                guard let password else { return try await guest.invite(endpoint) }
                let exchange = PasswordExchange.Guest(
                    password: try GamePassword(password), guest: guest.localPeer.identity, host: hostIdentity ?? host.localPeer.identity)
                return try await guest.invite(
                    endpoint, context: JoinRequest(passwordExchange: exchange.opening).context, answer: { exchange.answer(host: $0, challenge: $1) })
            }

            #expect(try await invite("bob", password: nil) == .declined(reason: GameError.passwordNeeded.message))
            await #expect(throws: MultipeerError(.hostRefused, GameError.passwordNotConfirmed(host: "alice").message)) {
                try await invite("carol", password: "open says me")
            }
            // The guest believes the host has another identity (a relay's in the middle): the
            // right password does not confirm either.
            await #expect(throws: MultipeerError(.hostRefused, GameError.passwordNotConfirmed(host: "alice").message)) {
                try await invite("erin", password: "open sesame", exchangeFor: UUID())
            }
            #expect(room.playerCount == 0)
            #expect(try await invite("dave", password: "open sesame") == .connected(host.localPeer))
            #expect(await eventually { room.seated.map(\.player.name) == ["dave"] })
        }
    }

    @Test("A guest whose answer does not confirm the password is never connected: the host closes its link with a sentence")
    func wrongAnswer() async throws {
        try await withSessions { scope in
            let network = InMemoryNetwork()
            let (host, room, endpoint) = try await privateGame(scope, network: network)
            defer { room.stop() }
            let hostSaw = EventLog(host.events, .stateChanged)
            let mallory = scope.session(localPeer: peer("mallory"), transport: network, configuration: .notAboutTimeouts)
            let exchange = PasswordExchange.Guest(password: try GamePassword("guess"), guest: mallory.localPeer.identity, host: host.localPeer.identity)
            let malloryHeard = EventLog(mallory.events, .stateChanged)
            // Mallory skips the host's check and answers with made-up bytes.
            let outcome = try await mallory.invite(
                endpoint, context: JoinRequest(passwordExchange: exchange.opening).context, answer: { _, _ in .success(Data(count: 64)) })
            #expect(outcome == .connected(host.localPeer))
            let dropped = await malloryHeard.waitFor(host.localPeer, .notConnected)
            #expect(dropped?.reason == .goodbye(GameError.wrongPassword.message))
            #expect(hostSaw.states(of: mallory.localPeer) == [.connecting, .notConnected])
            #expect(room.playerCount == 0)
        }
    }

    @Test("A host that lets a guest into a game listed as private without asking is refused by the guest")
    func hostThatDoesNotAsk() async throws {
        try await withSessions { scope in
            let network = InMemoryNetwork()
            let impostor = scope.session(localPeer: peer("alice"), transport: network, configuration: .notAboutTimeouts)
            let port = try await impostor.startListening(policy: .acceptAll)
            let guest = scope.session(localPeer: peer("bob"), transport: network, configuration: .notAboutTimeouts)
            let exchange = PasswordExchange.Guest(password: try GamePassword("open sesame"), guest: guest.localPeer.identity, host: impostor.localPeer.identity)
            await #expect(throws: MultipeerError(.hostRefused, GameError.passwordNotAsked(host: "alice").message)) {
                try await guest.invite(
                    try Endpoint(host: InMemoryNetwork.host, port: port), context: JoinRequest(passwordExchange: exchange.opening).context,
                    answer: { exchange.answer(host: $0, challenge: $1) })
            }
            // The guest closes the link it refused; the impostor hears of it a moment later.
            #expect(await eventually { impostor.connectedPeers.isEmpty })
        }
    }

    /// A private game of "open sesame" hosted by alice, listening on `network`.
    func privateGame(_ scope: SessionScope, network: InMemoryNetwork) async throws -> (Session, RoomHost<GuessRules>, Endpoint) {
        let host = scope.session(localPeer: peer("alice"), transport: network, configuration: .notAboutTimeouts)
        var configuration = GuessHosting(range: .standard, secretSource: .fixed(42))
        configuration.password = try GamePassword("open sesame")
        let (room, _) = try hostRoom(on: host, configuration: configuration)
        room.start()
        let port = try await host.startListening(policy: .custom { room.admission(of: $0) })
        return (host, room, try Endpoint(host: InMemoryNetwork.host, port: port))
    }

    @Test("A public game advertises no lock")
    func publicGame() async throws {
        try await withSessions { scope in
            let host = scope.session(localPeer: peer("alice"), transport: InMemoryNetwork())
            let (room, _) = try hostRoom(on: host, configuration: GuessHosting())
            #expect(!room.isPrivate && !GameAdvertisement(of: room).isPrivate)
            #expect(GameAdvertisement(of: room).discoveryInfo["k"] == nil)
        }
    }
}
