import EventBus
import ArgumentParser
import Foundation
import GuessnumApp
import GuessnumGame
import GuessnumTerminal
import Multipeer
import MultipeerTesting
import Rooms

/// A host REPL and any number of player REPLs over one in-memory network, each with a
/// scripted console and its own inbox: the application layer, end to end, in one process.
final class AppHarness: Sendable {
    let network: InMemoryNetwork
    let hostConsole: ScriptedConsole
    let hostInbox = Inbox()
    /// The host's room, as the `guessnum` program hosts guess-the-number.
    let room: RoomHost<GuessRules>
    /// Where the room's ticks are posted (``Rooms/RoomTicks``), its activity left to the host's screen.
    let events = EventBus()
    let host: HostREPL
    let hostRun: Task<MultipeerError?, Never>

    init(
        secret: Int64 = 42, asks: Bool = false, hostInteractive: Bool = false, json: Bool = false,
        network: InMemoryNetwork = InMemoryNetwork(), hostName: String = "alice", password: GamePassword? = nil,
        grace: Duration = .seconds(60), resuming: RoomSnapshot<GuessRules>? = nil
    ) async throws {
        self.network = network
        var configuration = RoomConfiguration()
        configuration.pauseBetweenRounds = .milliseconds(100)
        configuration.maximumPlayers = 10
        configuration.awayGracePeriod = grace
        let session = Session(localPeer: try PeerID(displayName: hostName), transport: network, configuration: .notAboutTimeouts)
        // The rules as `guessnum host --secret` makes them, then resumed as `--resume` does.
        let rules = try GuessOptions.parse(["--secret", String(secret)]).rules()
        let ticks = RoomTicks<GuessRules>(store: nil, events: events, leavesActivity: true) { sequence, event, bus in
            GuessRules.post(event, numbered: sequence, on: bus)
        }
        room = RoomHost(session: session, rules: rules, configuration: configuration, password: password, keptBy: ticks, resuming: resuming)
        hostConsole = ScriptedConsole(interactive: hostInteractive)
        host = HostREPL(
            room: room, presenter: GuessPresenter.self, console: json ? JSONConsole(wrapping: hostConsole) : hostConsole, inbox: hostInbox, discovery: network.discovery,
            text: GameText(style: .plain, json: json, me: session.localPeer.identity), asks: asks)
        let host = host
        hostRun = Task {
            do throws(MultipeerError) { try await host.run(port: 0) } catch { return error }
            return nil
        }
    }

    /// A player REPL named `name`, started in the list of games (or joining `gameName`), on
    /// `machine` (one the test can unplug) or straight on the network; under `identity` (a
    /// player of a resumed game coming back), or a new one.
    func player(
        _ name: String, gameName: String? = nil, timeout: Duration = .seconds(30), json: Bool = false,
        knownHosts: KnownHosts? = nil, rememberedGames: RememberedGames? = nil, interactive: Bool = false, password: GamePassword? = nil,
        machine: InMemoryMachine? = nil, identity: UUID? = nil
    ) throws -> Player {
        let peer = try identity.map { id throws(MultipeerError) in try PeerID(displayName: name, identity: id) } ?? PeerID(displayName: name)
        let session = Session(localPeer: peer, transport: machine ?? network, configuration: .notAboutTimeouts)
        let console = ScriptedConsole(interactive: interactive)
        let inbox = Inbox()
        let repl = GuestREPL(
            session: session, console: json ? JSONConsole(wrapping: console) : console, inbox: inbox, discovery: network.discovery,
            text: GameText(style: .plain, json: json, me: session.localPeer.identity), timeout: timeout, knownHosts: knownHosts,
            rememberedGames: rememberedGames, password: password)
        let run = Task { await repl.run(direct: nil, gameName: gameName) }
        return Player(session: session, console: console, inbox: inbox, run: run, repl: repl)
    }

    /// Ends the host's REPL as a signal would; returns its error, if any.
    func stopHost() async -> MultipeerError? {
        hostInbox.post(.signal)
        return await hostRun.value
    }
}

/// One player's REPL.
struct Player: Sendable {
    let session: Session
    let console: ScriptedConsole
    let inbox: Inbox
    let run: Task<AppFailure?, Never>
    /// The REPL itself, for what a test must see of it that the screen does not show.
    let repl: GuestREPL

    /// Types `line` and Enter.
    func type(_ line: String) { inbox.post(.typed(line)) }

    /// Ends the REPL as a signal would; returns its failure, if any.
    func stop() async -> AppFailure? {
        inbox.post(.signal)
        return await run.value
    }
}
