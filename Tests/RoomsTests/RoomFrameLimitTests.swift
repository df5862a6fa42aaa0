import Foundation
import Multipeer
import MultipeerTestSupport
import MultipeerTesting
@testable import Rooms
import Testing
import TicTacToe

/// A room whose ticks gather more than one frame holds, between real sessions.
@Suite("A room's broadcasts larger than a frame", .timeLimit(.minutes(1)))
struct RoomFrameLimitTests {
    var deadline: ContinuousClock.Instant { .now + .seconds(30) }

    /// Sessions whose frames are small, so that a few chat lines overflow one.
    static var smallFrames: SessionConfiguration {
        var configuration = SessionConfiguration.notAboutTimeouts
        configuration.maximumFrameLength = 4_096
        return configuration
    }

    /// The chat lines `guest` reads until it has read `count` of them, or what it read by the
    /// deadline.
    func chat(_ count: Int, readBy guest: RoomGuest<TicTacToeRules>) async -> [String] {
        let deadline = deadline
        return await withTaskGroup(of: [String]?.self) { group in
            group.addTask {
                var lines: [String] = []
                for await event in guest.events {
                    if case .item(.chat(let line)) = event { lines.append(line.text) }
                    if lines.count == count { break }
                }
                return lines
            }
            group.addTask {
                try? await Task.sleep(until: deadline)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? []
        }
    }

    @Test("A tick's broadcast over the frame limit arrives whole, in order, as several frames; so does the replay of a player back from a drop")
    func splitBroadcastAndReplay() async throws {
        try await withSessions { scope in
            let memory = InMemoryNetwork()
            let hostSession = scope.session(localPeer: peer("alice"), transport: memory, configuration: Self.smallFrames)
            var configuration = RoomConfiguration()
            configuration.pauseBetweenRounds = .seconds(600)
            let host = RoomHost(session: hostSession, rules: TicTacToeRules(), configuration: configuration)
            host.start()
            defer { host.stop() }
            let port = try await hostSession.startListening(policy: .custom { host.admission(of: $0) })
            let endpoint = try Endpoint(host: InMemoryNetwork.host, port: port)
            let guest = RoomGuest<TicTacToeRules>(session: scope.session(localPeer: peer("bob"), transport: memory, configuration: Self.smallFrames))
            defer { guest.stop() }
            #expect(try await guest.session.invite(endpoint, context: guest.joinRequest.context) == .connected(hostSession.localPeer))
            #expect(await guest.state(until: \.isWelcomed, before: deadline).isWelcomed)

            // Twelve lines of 490 bytes: about 6 KB said within one tick, more than a frame holds.
            let live = (1...12).map { "live \($0) " + String(repeating: "x", count: 480) }
            for line in live { try host.say(line) }
            #expect(await chat(12, readBy: guest) == live, "every line of the tick arrived, in order")

            memory.resetConnections(toPort: port)
            await host.rules(until: { _ in hostSession.state(of: guest.session.localPeer) == .notConnected }, before: deadline)
            let missed = (1...12).map { "missed \($0) " + String(repeating: "y", count: 480) }
            for line in missed { try host.say(line) }
            #expect(try await guest.session.invite(endpoint, context: guest.joinRequest.context) == .connected(hostSession.localPeer))
            #expect(await chat(12, readBy: guest) == missed, "the replay of what was missed arrived whole, in order")
            #expect(guest.current.welcomes == 1, "replayed, not welcomed again")
        }
    }
}
