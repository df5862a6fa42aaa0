import Foundation
import GuessnumGame
@testable import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Testing

/// A private game's guess budget cannot be spent against its players: one back after a drop,
/// whose connection proves its key, gets its seat back without the password, whatever wrong
/// guesses came from its network meanwhile.
@Suite("Returning players of a private game", .timeLimit(.minutes(1)))
struct ReturningPlayerTests {
    /// An invitation from `peer` at `address` carrying `request`, its key proved or not.
    func invitation(_ peer: PeerID, from address: String, request: JoinRequest, proven: Bool) -> Invitation {
        Invitation(
            peer: peer, context: request.context, remoteDescription: "\(address):50000", expires: .now + .seconds(60),
            codeCommitment: [], isIdentityProven: proven)
    }

    @Test("A seated player whose key is proved is let back in without the password while its network is locked out for wrong guesses; an unproved claim of its identity, and a newcomer, are not")
    func seatedPlayerKeepsTheSeat() async throws {
        try await withSessions { scope in
            let network = InMemoryNetwork()
            let (host, room, endpoint) = try await PrivateGameTests().privateGame(scope, network: network)
            defer { room.stop() }
            let dave = scope.session(localPeer: peer("dave"), transport: network, configuration: .notAboutTimeouts)
            let exchange = PasswordExchange.Guest(password: try GamePassword("open sesame"), guest: dave.localPeer.identity, host: host.localPeer.identity)
            #expect(try await dave.invite(
                endpoint, context: JoinRequest(passwordExchange: exchange.opening).context,
                answer: { exchange.answer(host: $0, challenge: $1) }) == .connected(host.localPeer))
            #expect(await eventually { room.seated.map(\.player.name) == ["dave"] })

            // Five malformed exchanges from dave's network lock it out for a minute.
            let locked = GameError.tooManyWrongPasswords(5, period: .seconds(60)).message
            for index in 1...5 {
                let guess = JoinRequest(passwordExchange: Data(repeating: UInt8(index), count: 8))
                #expect(room.admission(of: invitation(peer("mallory\(index)"), from: "10.0.0.5", request: guess, proven: true)) != .accept)
            }
            let back = JoinRequest(passwordExchange: exchange.opening)
            #expect(room.admission(of: invitation(peer("erin"), from: "10.0.0.5", request: back, proven: true)) == .decline(reason: locked))
            #expect(room.admission(of: invitation(dave.localPeer, from: "10.0.0.5", request: back, proven: false)) == .decline(reason: locked))
            #expect(room.admission(of: invitation(dave.localPeer, from: "10.0.0.5", request: back, proven: true)) == .accept)
            #expect(room.admission(of: invitation(dave.localPeer, from: "10.0.0.5", request: JoinRequest(), proven: true)) == .accept)
        }
    }
}
