import Foundation
import GuessnumGame
import Multipeer
import MultipeerNIO

/// The real host under test: a ``Session`` on the TCP transport with a ``GameMaster``, set up
/// as `guessnum host` sets them up, listening on loopback only.
struct BenchHost: Sendable {
    let session: Session
    let master: GameMaster
    let port: Int

    /// Starts hosting for up to `maximumPlayers`. Closed-loop runs lift the per-guest guess
    /// throttle (20 a second by default), which would otherwise answer most of a closed loop's
    /// guesses with "slow down" instead of a verdict; paced runs keep the product's defaults.
    ///
    /// With `productLimits` (the attack runs) the host keeps every limit `guessnum host` has — per
    /// address, per guest, in the handshake — and admits players as it does, so that what is
    /// measured is the product's defence.
    static func start(mode: BenchMode, maximumPlayers: Int, tickMilliseconds: Int? = nil, productLimits: Bool = false,
        tls: Bool = false
    ) async throws -> BenchHost {
        var configuration = GameConfiguration(range: try BenchGame.range())
        configuration.maximumPlayers = maximumPlayers
        if let tickMilliseconds { configuration.broadcastTick = .milliseconds(tickMilliseconds) }
        if mode == .closed, !productLimits {
            configuration.guessesPerSecond = 1_000_000
            configuration.messagesPerSecond = 1_000_000
            configuration.messageBurst = 1_000_000
            configuration.guessBurst = 1_000_000
        }
        // Every simulated guest connects from 127.0.0.1: lift the limits per address.
        var sessionConfiguration = SessionConfiguration()
        if !productLimits {
            sessionConfiguration.maximumHandshakes = max(sessionConfiguration.maximumHandshakes, maximumPlayers)
            sessionConfiguration.maximumHandshakesPerAddress = sessionConfiguration.maximumHandshakes
        }
        let key = PeerKey.generate()
        let session = Session(
            localPeer: try key.peer(displayName: "bench host"),
            transport: TCPTransport(bindHost: "127.0.0.1", credentials: tls ? try TLSCredentials(key: key) : nil),
            configuration: sessionConfiguration)
        let master = try GameMaster(session: session, configuration: configuration)
        master.start()
        let port = try await session.startListening(port: 0, policy: .custom { invitation in
            if productLimits { return master.admission(of: invitation) }
            return master.playerCount >= maximumPlayers ? .decline(reason: "the game is full") : .accept
        })
        return BenchHost(session: session, master: master, port: port)
    }

    func stop() async {
        master.stop()
        await session.disconnect(reason: "the benchmark is over")
    }
}
