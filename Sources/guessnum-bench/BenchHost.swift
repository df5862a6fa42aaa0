import EventBus
import Foundation
import GuessnumGame
import GuessnumStore
import Multipeer
import MultipeerNIO
import Rooms

/// The real host under test: a ``Session`` on the TCP transport with a room of guess-the-number
/// (`RoomHost<GuessRules>`, its ticks kept by the store through `RoomTicks` and posted on an event
/// bus), set up as `guessnum host` sets them up, listening on loopback only.
struct BenchHost: Sendable {
    let session: Session
    let room: RoomHost<GuessRules>
    let port: Int
    /// How this host was set up, to start another like it after a crash.
    let setup: Setup
    /// The transport to crash, in restart runs only: other runs keep the product's transport
    /// as it is, with no extra hop per frame.
    let crashable: CrashableTransport?

    /// Everything a host is started from, kept so that a restart starts the same one.
    struct Setup: Sendable {
        let key: PeerKey
        /// The room's rules and limits, and the game's.
        let room: RoomConfiguration
        let settings: GuessSettings
        let guessThrottle: Throttle
        let sessionConfiguration: SessionConfiguration
        let tls: Bool
        let maximumPlayers: Int
        let productLimits: Bool
        /// The game's store (a file in a temporary directory), when the host keeps one.
        let store: RoomStore<GuessRules>?
        let crashable: Bool
    }

    /// The game's store, when the host keeps one.
    var store: RoomStore<GuessRules>? { setup.store }

    /// Starts hosting for up to `maximumPlayers`. Closed-loop runs lift the per-guest guess
    /// throttle (20 a second by default), which would otherwise answer most of a closed loop's
    /// guesses with "slow down" instead of a verdict; paced runs keep the product's defaults.
    ///
    /// With `productLimits` (the attack runs) the host keeps every limit `guessnum host` has — per
    /// address, per guest, in the handshake — and admits players as it does, so that what is
    /// measured is the product's defence.
    ///
    /// The host's links are a game's (``Multipeer/SessionConfiguration/room``'s flush limit) unless
    /// `carriesStreams`: then a stream shares them with the game (the streams benchmark).
    static func start(mode: BenchMode, maximumPlayers: Int, tickMilliseconds: Int? = nil, productLimits: Bool = false,
        tls: Bool = false, keepsStore: Bool = false, carriesStreams: Bool = false
    ) async throws -> BenchHost {
        var room = RoomConfiguration()
        room.maximumPlayers = maximumPlayers
        if let tickMilliseconds { room.broadcastTick = .milliseconds(tickMilliseconds) }
        var guessThrottle = GuessRules.moveThrottle
        if mode == .closed, !productLimits {
            guessThrottle = Throttle(rate: 1_000_000, burst: 1_000_000)
            room.messagesPerSecond = 1_000_000
            room.messageBurst = 1_000_000
        }
        // Every simulated guest connects from 127.0.0.1: lift the limits per address.
        var sessionConfiguration = SessionConfiguration()
        if !carriesStreams { sessionConfiguration.maximumFlushBytes = SessionConfiguration.room.maximumFlushBytes }
        // GUESSNUM_BENCH_HANDSHAKES: another number of handshake places, to measure what it changes.
        if let places = ProcessInfo.processInfo.environment["GUESSNUM_BENCH_HANDSHAKES"].flatMap(Int.init), places > 0 {
            sessionConfiguration.maximumHandshakes = places
        }
        if !productLimits {
            sessionConfiguration.maximumHandshakes = max(sessionConfiguration.maximumHandshakes, maximumPlayers)
            sessionConfiguration.maximumHandshakesPerAddress = sessionConfiguration.maximumHandshakes
        }
        var store: RoomStore<GuessRules>?
        if keepsStore {
            let file = FileManager.default.temporaryDirectory
                .appendingPathComponent("guessnum-bench-\(UUID().uuidString)", isDirectory: true).appendingPathComponent("game.sqlite")
            store = try RoomStore<GuessRules>(at: file)
        }
        let setup = Setup(
            key: PeerKey.generate(), room: room, settings: GuessSettings(range: try BenchGame.range()), guessThrottle: guessThrottle,
            sessionConfiguration: sessionConfiguration, tls: tls,
            maximumPlayers: maximumPlayers, productLimits: productLimits, store: store, crashable: mode == .restart)
        return try await launch(setup, port: 0, resuming: nil)
    }

    private static func launch(_ setup: Setup, port: Int, resuming snapshot: RoomSnapshot<GuessRules>?) async throws -> BenchHost {
        let tcp = TCPTransport(bindHost: "127.0.0.1", credentials: setup.tls ? try TLSCredentials(key: setup.key) : nil)
        let crashable = setup.crashable ? CrashableTransport(base: tcp) : nil
        let session = Session(
            localPeer: try setup.key.peer(displayName: "bench host"), transport: crashable ?? tcp, configuration: setup.sessionConfiguration)
        var rules = GuessRules(settings: setup.settings)
        if snapshot == nil { try rules.prepareRound(over: setup.settings.range) }
        let ticks = RoomTicks<GuessRules>(store: setup.store, events: EventBus(), leavesActivity: false) { sequence, event, bus in
            GuessRules.post(event, numbered: sequence, on: bus)
        }
        let room = RoomHost(
            session: session, rules: rules, configuration: setup.room, moveThrottle: setup.guessThrottle, password: nil, keptBy: ticks,
            resuming: snapshot)
        room.start()
        let (productLimits, maximumPlayers) = (setup.productLimits, setup.maximumPlayers)
        let port = try await session.startListening(port: port, policy: .custom { invitation in
            if productLimits { return room.admission(of: invitation) }
            return room.playerCount >= maximumPlayers && room.admission(of: invitation.peer, from: nil) != .accept
                ? .decline(reason: "the game is full") : .accept
        })
        return BenchHost(session: session, room: room, port: port, setup: setup, crashable: crashable)
    }

    /// Crashes this host (every connection closes at once, nothing said, nothing more written to
    /// the store) and starts another in its place on the same port, with the same key, resuming
    /// the game from the store.
    func crashAndResume(after pause: Duration) async throws -> BenchHost {
        guard let crashable, let store else { throw BenchFailure("a restart needs a crashable host with a store") }
        await crashable.crash()
        room.stop()
        await session.disconnect()
        await store.waitForWrites()
        try await Task.sleep(for: pause)
        guard let snapshot = try store.load() else { throw BenchFailure("the store held no game") }
        return try await Self.launch(setup, port: port, resuming: snapshot)
    }

    func stop() async {
        room.stop()
        await session.disconnect(reason: "the benchmark is over")
        if let store {
            await store.waitForWrites()
            store.delete()
            try? FileManager.default.removeItem(at: store.fileURL.deletingLastPathComponent())
        }
    }
}
