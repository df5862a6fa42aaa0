import EventBus
import Foundation
import Logging
import GuessnumGame
import Multipeer
import MultipeerNIO
import MultipeerTestSupport
import MultipeerTesting
import Rooms

/// A network to play over: the in-memory one, or real TCP on loopback.
enum Network: String, CustomStringConvertible, CaseIterable {
    case inMemory = "in-memory"
    case tcp = "TCP"

    var description: String { rawValue }
}

/// A host session with its room of guess-the-number (hosted as the `guessnum` program hosts
/// it, its ticks posted on ``events`` by the room layer's `RoomTicks`) and any number of
/// guests, each a session with a guest game and logs of what it saw.
final class GameHarness: Sendable {
    let network: Network
    let memory: InMemoryNetwork
    let host: Session
    let room: RoomHost<GuessRules>
    /// Where the room's ticks are posted: the room's channels and the game's.
    let events: EventBus
    let port: Int
    let hostVerdicts: EventLog<JudgedGuess>
    let hostChats: EventLog<RelayedChat>
    let hostLeaves: EventLog<PlayerLeft>
    /// What the host's room logged.
    let hostLog = RecordingLogHandler.Store()
    /// What every session of the harness (the host's and the guests') logged.
    let sessionLog = RecordingLogHandler.Store()
    let sessionConfiguration: SessionConfiguration
    private let guests = Locked<[Guest]>([])

    init(_ network: Network, configuration: GuessHosting, sessionConfiguration: SessionConfiguration = .notAboutTimeouts) async throws {
        self.network = network
        self.sessionConfiguration = sessionConfiguration
        memory = InMemoryNetwork()
        let transport: any Transport = network == .tcp ? TCPTransport(bindHost: "127.0.0.1") : memory
        host = Session(localPeer: peer("alice"), transport: transport, configuration: sessionConfiguration, logger: sessionLog.logger(label: "multipeer.session"))
        (room, events) = try hostRoom(on: host, configuration: configuration, logger: hostLog.logger(label: "guessnum.game"))
        hostVerdicts = EventLog(events, .verdict)
        hostChats = EventLog(events, .chat)
        hostLeaves = EventLog(events, .playerLeft)
        room.start()
        port = try await host.startListening()
    }

    var endpoint: Endpoint {
        try! Endpoint(host: network == .tcp ? "127.0.0.1" : InMemoryNetwork.host, port: port)
    }

    /// Lets `duration` pass for the host's session: on the in-memory network its clock is moved
    /// (it stands still otherwise); over TCP the real clock moves by itself, so nothing is done.
    func advanceMemoryClock(by duration: Duration) async {
        if network == .inMemory { await memory.advanceTime(by: duration) }
    }

    func transport() -> any Transport {
        network == .tcp ? TCPTransport() : memory
    }

    /// A guest named `name` that has joined and been welcomed.
    func join(_ name: String) async throws -> Guest {
        let guest = Guest(session: Session(
            localPeer: peer(name), transport: transport(), configuration: sessionConfiguration,
            logger: sessionLog.logger(label: "multipeer.session")))
        guests.withLock { $0.append(guest) }
        let outcome = try await guest.session.invite(endpoint)
        guard outcome == .connected(host.localPeer) else { throw TestFailure("\(name) could not join: \(outcome)") }
        guard await guest.welcomes.first(where: { _ in true }) != nil else { throw TestFailure("\(name) was never welcomed") }
        return guest
    }

    func tearDown() async {
        room.stop()
        for guest in guests.value {
            guest.game.stop()
            await guest.session.disconnect()
        }
        await host.disconnect()
    }
}

/// One guest and what it saw.
final class Guest: Sendable {
    let session: Session
    let game: GuestGame
    let welcomes: EventLog<WelcomeMessage>
    let verdicts: EventLog<JudgedGuess>
    let chats: EventLog<RelayedChat>
    let errors: EventLog<GameError>
    let roundsWon: EventLog<RoundWon>
    let roundsStarted: EventLog<RoundStarted>
    let fairness: EventLog<FairnessCheck>
    let joins: EventLog<PlayerJoined>
    /// What the guest game logged.
    let log = RecordingLogHandler.Store()

    init(session: Session) {
        self.session = session
        game = GuestGame(session: session, logger: log.logger(label: "guessnum.game"))
        welcomes = EventLog(game.events, .welcomed)
        verdicts = EventLog(game.events, .verdict)
        chats = EventLog(game.events, .chat)
        errors = EventLog(game.events, .gameError)
        roundsWon = EventLog(game.events, .roundWon)
        roundsStarted = EventLog(game.events, .roundStarted)
        fairness = EventLog(game.events, .fairnessChecked)
        joins = EventLog(game.events, .playerJoined)
    }

    var name: String { session.localPeer.displayName }
    var id: UUID { session.localPeer.identity }
}

/// Runs `body` with a started game over `network` and always tears the game down afterwards,
/// whether `body` returns or throws (a failed `#require` included), so no session, ticker or
/// socket outlives its test.
func withGame<Result>(
    _ network: Network, configuration: GuessHosting, sessionConfiguration: SessionConfiguration = .notAboutTimeouts,
    _ body: (GameHarness) async throws -> Result
) async throws -> Result {
    let game = try await GameHarness(network, configuration: configuration, sessionConfiguration: sessionConfiguration)
    return try await withTearDown({ try await body(game) }, tearDown: { await game.tearDown() })
}

/// A room of guess-the-number on `session` as the `guessnum` program hosts one, made from
/// `configuration`, its ticks posted on the bus returned (``Rooms/RoomTicks``). Not started.
func hostRoom(
    on session: Session, configuration: GuessHosting, logger: Logger = Logger(label: "guessnum.game")
) throws -> (RoomHost<GuessRules>, EventBus) {
    let events = EventBus()
    let ticks = RoomTicks<GuessRules>(store: nil, events: events, leavesActivity: false) { sequence, event, bus in
        GuessRules.post(event, numbered: sequence, on: bus)
    }
    let room = RoomHost(
        session: session, rules: try configuration.rules(), configuration: configuration.room,
        moveThrottle: configuration.guessThrottle, password: configuration.password, logger: logger, keptBy: ticks, resuming: nil)
    return (room, events)
}
