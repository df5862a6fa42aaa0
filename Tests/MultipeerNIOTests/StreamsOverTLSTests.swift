import Foundation
import Multipeer
import MultipeerNIO
import MultipeerTestSupport
import Testing

/// Byte streams between two keyed sessions over TCP with TLS 1.3 on loopback: the scenarios the
/// in-memory suite runs, on the real transport, where frames are split wherever TCP and TLS
/// split them and the connection's backlog signal is NIO's.
@Suite("Byte streams over TLS", .timeLimit(.minutes(2)))
struct StreamsOverTLSTests {
    /// Runs `body` with scenarios for a keyed host and guest connected over TLS.
    func withConnected(_ body: (StreamScenarios) async throws -> Void) async throws {
        try await withSessions { scope in
            let pair = try await KeyedPair(in: scope)
            let scenarios = StreamScenarios(host: pair.host, guest: pair.guest)
            try await pair.connect()
            try await body(scenarios)
        }
    }

    @Test("A reader that pauses holds its writer at the window while messages flow both ways; reading lets it finish")
    func pausedReader() async throws {
        try await withConnected { try await $0.pausedReader() }
    }

    @Test("Two streams one way, one the other way, and messages both ways at once: all intact and in order")
    func streamsAndMessages() async throws {
        try await withConnected { try await $0.streamsAndMessages() }
    }

    @Test("A reset by either side ends the other's side with streamReset and a sentence; the link goes on")
    func resets() async throws {
        try await withConnected { try await $0.resets() }
    }

    @Test("A link that closes (the writer's session leaves) ends the reader's sequence and a waiting write with streamInterrupted")
    func linkCloses() async throws {
        try await withConnected { scenarios in
            try await scenarios.linkDrop { await scenarios.guest.disconnect() }
        }
    }
}
