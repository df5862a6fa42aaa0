import Foundation
import GuessnumStore
import Multipeer
import Rooms

/// What every hosted game starts from, whatever the game: the host's session and terminal,
/// where the game is announced, and the settings every game has. The host command makes it;
/// a ``PlayableGame`` hosts on it.
public struct HostSetup: Sendable {
    /// The host's name (its store's file is named after it).
    public var name: String
    /// The host's session, not yet listening.
    public var session: Session
    /// The host's terminal.
    public var terminal: AppTerminal
    /// Where the game is announced.
    public var discovery: any DiscoveryBackend
    /// How the host's screen is written.
    public var text: GameText
    /// The room's limits: players, players per address, held seats' grace, turn time.
    public var room: RoomConfiguration
    /// The game's password, if it is private.
    public var password: GamePassword?
    /// Whether the host is asked before each player is let in (`--ask`).
    public var asks: Bool
    /// Whether to go on with an interrupted game without asking (`--resume`).
    public var resumes: Bool
    /// The port to listen on (nil: the last game's, else any; 0: any).
    public var port: Int?
    /// The identity of the person whose key endorsed the host's, announced with the game when
    /// it is not the host's own (another program of the account holds the person's first key).
    public var owner: UUID?

    /// A setup from the host command's options.
    public init(
        name: String, session: Session, terminal: AppTerminal, discovery: any DiscoveryBackend, text: GameText,
        room: RoomConfiguration, password: GamePassword?, asks: Bool, resumes: Bool, port: Int?, owner: UUID? = nil
    ) {
        self.owner = owner
        (self.name, self.session, self.terminal, self.discovery, self.text) = (name, session, terminal, discovery, text)
        (self.room, self.password, self.asks, self.resumes, self.port) = (room, password, asks, resumes, port)
    }

    /// Whether to go on with the interrupted game that `summary` describes (nil: none).
    func shouldResume(_ summary: String?) async throws(AppFailure) -> Bool {
        let grace = Int(room.awayGracePeriod.components.seconds)
        return try await ResumeQuestion.shouldResume(summary, resume: resumes, grace: grace, console: terminal.console, inbox: terminal.inbox)
    }

    /// Serves a game kept in `store`, whatever the game: asks whether to go on with what the
    /// store saved (told by `summary`), has `open` make the room from the answer (with whatever
    /// must live as long as it serves), serves it on the host's screen told by `presenter`, and
    /// deletes the store once the game ended as it should (its players were told).
    func serve<Store: KeptGame, Presenter: GamePresenter>(
        keptIn store: Store, summary: (Store.Saved) -> String, presenter: Presenter.Type,
        open: (Store.Saved?) async throws -> (room: RoomHost<Presenter.Rules>, owner: (any Sendable)?)
    ) async throws {
        let saved = try store.load()
        let (room, keptAlive) = try await open(try await shouldResume(saved.map(summary)) ? saved : nil)
        let screen = HostREPL(
            room: room, presenter: presenter, console: terminal.console, inbox: terminal.inbox, discovery: discovery, text: text,
            asks: asks, command: ProgramCommand.current(), owner: owner)
        try await screen.run(port: port, ports: ListeningPortMemory.standard())
        withExtendedLifetime(keptAlive) {}
        await store.waitForWrites()
        store.delete()
    }
}
