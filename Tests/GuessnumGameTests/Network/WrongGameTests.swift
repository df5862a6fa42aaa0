import Foundation
import GuessnumGame
import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Testing

@Suite("A guess-the-number host and players of other games", .timeLimit(.minutes(1)))
struct WrongGameTests {
    @Test("A player of another game is turned away with a sentence; one that names this game, or none, comes in")
    func otherGames() async throws {
        try await withSessions { scope in
            let network = InMemoryNetwork()
            let host = scope.session(localPeer: peer("alice"), transport: network)
            let (room, _) = try hostRoom(on: host, configuration: GuessHosting(secretSource: .fixed(42)))
            room.start()
            defer { room.stop() }
            let port = try await host.startListening(policy: .custom { room.admission(of: $0) })
            let endpoint = try Endpoint(host: InMemoryNetwork.host, port: port)
            let carol = scope.session(localPeer: peer("carol"), transport: network)
            let outcome = try await carol.invite(endpoint, context: JoinRequest(game: "tictactoe").context)
            #expect(outcome == .declined(reason: "this room plays guess-the-number, not “tictactoe”; a guessnum that knows guess-the-number can join it"))
            for (name, game) in [("bob", "guessnum" as String?), ("dave", nil)] {
                let guest = scope.session(localPeer: peer(name), transport: network)
                #expect(try await guest.invite(endpoint, context: JoinRequest(game: game).context) == .connected(host.localPeer))
            }
        }
    }
}
