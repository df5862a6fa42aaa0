import Logging
import Multipeer

/// The sessions a test makes, disconnected together when the test's scope ends.
public final class SessionScope: Sendable {
    private let sessions = Locked<[Session]>([])

    /// A session that ``withSessions(_:)`` disconnects when its scope ends; unless told
    /// otherwise, one for a test that is not about timeouts (``SessionConfiguration/notAboutTimeouts``).
    public func session(
        localPeer: PeerID, transport: any Transport, configuration: SessionConfiguration = .notAboutTimeouts,
        logger: Logger = Logger(label: "multipeer.session")
    ) -> Session {
        let session = Session(localPeer: localPeer, transport: transport, configuration: configuration, logger: logger)
        sessions.withLock { $0.append(session) }
        return session
    }

    fileprivate func disconnectAll() async {
        for session in sessions.value { await session.disconnect() }
    }
}

/// Runs `body` with a scope for sessions and disconnects every session made in it afterwards,
/// whether `body` returns or throws (a failed `#require` included), so that no session, ticker
/// or socket outlives its test.
public func withSessions<Result>(_ body: (SessionScope) async throws -> Result) async throws -> Result {
    let scope = SessionScope()
    return try await withTearDown({ try await body(scope) }, tearDown: { await scope.disconnectAll() })
}

extension SessionConfiguration {
    /// Sessions for tests that are not about timeouts: a peer is lost after 60 s of silence
    /// instead of 2.5 s. Both ends of such a test live in the test process, whose heartbeats are
    /// tasks among hundreds of tests on a pool of one thread per core: a loaded machine may delay
    /// them by seconds, which must make a test slower, never drop its peers. (A peer that goes
    /// away closes its connection, which is noticed at once whatever the timeout.)
    public static var notAboutTimeouts: SessionConfiguration {
        var configuration = SessionConfiguration()
        configuration.peerTimeout = .seconds(60)
        return configuration
    }
}
