import Foundation
import Multipeer
import MultipeerNIO
import MultipeerTestSupport
import Rooms
import RockPaperScissors
import Testing

/// Rock-paper-scissors on the room layer between real sessions over TCP: throws committed, then
/// revealed, through the network.
@Suite("Rock-paper-scissors in a room over TCP", .timeLimit(.minutes(1)))
struct RockPaperScissorsRoomTests {
    var deadline: ContinuousClock.Instant { .now + .seconds(30) }

    @Test("A best-of-one match: both commit, both reveal, the winner is credited on both sides and neither saw the other's hand early")
    func match() async throws {
        try await withSessions { scope in
            let hostSession = scope.session(localPeer: peer("alice"), transport: TCPTransport(bindHost: "127.0.0.1"))
            var configuration = RoomConfiguration()
            configuration.pauseBetweenRounds = .seconds(600)
            let host = RoomHost(session: hostSession, rules: RPSRules(settings: try RPSSettings(bestOf: 1)), configuration: configuration)
            host.start()
            defer { host.stop() }
            let port = try await hostSession.startListening(policy: .custom { host.admission(of: $0) })
            let endpoint = try Endpoint(host: "127.0.0.1", port: port)
            var guests: [RoomGuest<RPSRules>] = []
            for name in ["bob", "carol"] {
                let guest = RoomGuest<RPSRules>(session: scope.session(localPeer: peer(name), transport: TCPTransport()))
                guests.append(guest)
                #expect(try await guest.session.invite(endpoint, context: guest.joinRequest.context) == .connected(hostSession.localPeer))
                await guest.state(until: \.isWelcomed, before: deadline)
            }
            defer { for guest in guests { guest.stop() } }
            await host.rules(until: { $0.view(for: nil).phase == .playing }, before: deadline)
            let (bob, carol) = (guests[0], guests[1])
            let hands = [SealedHand(hand: .paper), SealedHand(hand: .rock)]
            try bob.play(hands[0].commitMove)
            try carol.play(hands[1].commitMove)
            // Both sealed: each sees that the other chose, and no hand yet.
            for guest in guests {
                let state = await guest.state(until: { $0.view?.next == .reveal }, before: deadline)
                #expect(state.view?.lastThrow == nil, "no hand is shown before both are revealed")
            }
            try bob.play(hands[0].revealMove)
            let midway = await carol.state(until: { $0.view?.seats.contains { $0.revealed } == true }, before: deadline)
            #expect(midway.view?.lastThrow == nil, "one reveal shows nothing")
            try carol.play(hands[1].revealMove)
            let bobID = bob.session.localPeer.identity
            for guest in guests {
                let state = await guest.state(until: { $0.scores.first?.player.id == bobID }, before: deadline)
                #expect(state.scores.map(\.wins) == [1], "paper beats rock, read by \(guest.session.localPeer.displayName)")
            }
        }
    }
}
