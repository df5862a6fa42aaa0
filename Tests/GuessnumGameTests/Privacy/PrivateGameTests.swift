import Foundation
import GuessnumGame
import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Testing

/// A private game: the host admits a guest whose invitation proves the password, turns the
/// others away with a sentence, and says so in its advertisement.
@Suite("Private games", .timeLimit(.minutes(2)))
struct PrivateGameTests {
    @Test("Without a proof, or with a wrong one, a guest is declined with a sentence; with the right one it plays")
    func admission() async throws {
        try await withSessions { scope in
            let network = InMemoryNetwork()
            let host = scope.session(localPeer: peer("alice"), transport: network, configuration: .notAboutTimeouts)
            var configuration = GameConfiguration(range: .standard, secretSource: .fixed(42))
            configuration.password = try GamePassword("open sesame")
            configuration.passwordCost = .cheap
            let master = try await GameMaster(session: host, configuration: configuration)
            master.start()
            defer { master.stop() }
            #expect(master.isPrivate && master.advertisement.isPrivate)
            #expect(GameAdvertisement(decoding: master.advertisement.discoveryInfo).isPrivate)
            let port = try await host.startListening(policy: .custom { master.admission(of: $0) })
            let endpoint = try Endpoint(host: InMemoryNetwork.host, port: port)

            func invite(_ name: String, password: String?) async throws -> InvitationOutcome {
                let guest = scope.session(localPeer: peer(name), transport: network, configuration: .notAboutTimeouts)
                var proof: Data?
                if let password {
                    let key = await PasswordProof.key(for: try GamePassword(password), host: host.localPeer.identity, cost: .cheap)
                    proof = PasswordProof.proof(key, guest: guest.localPeer.identity)
                }
                return try await guest.invite(endpoint, context: JoinRequest(passwordProof: proof).context)
            }

            #expect(try await invite("bob", password: nil) == .declined(reason: GameError.passwordNeeded.message))
            #expect(try await invite("carol", password: "open says me") == .declined(reason: GameError.wrongPassword.message))
            #expect(master.playerCount == 0)
            #expect(try await invite("dave", password: "open sesame") == .connected(host.localPeer))
            #expect(await eventually { master.players.map(\.player.name) == ["dave"] })
        }
    }

    @Test("A public game advertises no lock, and its admission ignores a proof")
    func publicGame() async throws {
        try await withSessions { scope in
            let host = scope.session(localPeer: peer("alice"), transport: InMemoryNetwork())
            let master = try await GameMaster(session: host)
            #expect(!master.isPrivate && !master.advertisement.isPrivate)
            #expect(master.advertisement.discoveryInfo["k"] == nil)
        }
    }
}
