import Foundation
import Multipeer
import MultipeerNIO
import MultipeerTestSupport
import Testing

/// Resources between two keyed sessions over TCP with TLS 1.3 on loopback: the scenarios the
/// in-memory suite runs, on the real transport, and a link the host drops mid-transfer.
@Suite("Resources over TLS", .timeLimit(.minutes(2)))
struct ResourcesOverTLSTests {
    /// Runs `body` with scenarios for a keyed host and guest connected over TLS, and a way for
    /// the guest to connect again.
    func withConnected(_ body: (ResourceScenarios, _ reconnect: @Sendable () async throws -> Void) async throws -> Void) async throws {
        try await withSessions { scope in
            let pair = try await KeyedPair(in: scope)
            let scenarios = ResourceScenarios(host: pair.host, guest: pair.guest)
            try await pair.connect()
            try await body(scenarios, pair.connect)
        }
    }

    @Test("A file goes whole, under its name, 0600, with progress and the started and finished events")
    func sendAndSave() async throws {
        try await withConnected { scenarios, _ in try await scenarios.sendAndSave() }
    }

    @Test("A declined offer ends the sender's transfer with the receiver's reason; an empty file goes too")
    func declinedAndEmpty() async throws {
        try await withConnected { scenarios, _ in try await scenarios.declinedAndEmpty() }
    }

    @Test("A cancel by either side mid-transfer ends both with a sentence and leaves no partial file")
    func cancels() async throws {
        try await withConnected { scenarios, _ in try await scenarios.cancels() }
    }

    @Test("The host drops the link mid-transfer; the guest connects again and the transfer resumes from what the host held")
    func resumesAfterDrop() async throws {
        try await withConnected { scenarios, reconnect in
            try await scenarios.resumesAfterDrop(
                drop: { scenarios.host.disconnect(scenarios.guest.localPeer, reason: "testing a drop") },
                reconnect: reconnect)
        }
    }
}
