import ArgumentParser
import GuessnumGame
import Rooms

/// One game this program plays, declared once in ``GameCatalog/games``: its name, its own
/// options (the game module's ``Rooms/GameOptions``, with their help and checks), how a player
/// sits at it and how it is hosted. The host command, its help, the list of games, `--game` and
/// the refusals that name the games the host plays all read the catalog, so adding a game is
/// its module and one line there.
public struct PlayableGame: Sendable {
    /// Which game.
    public let kind: GameKind
    /// Whether the game's players take turns (the host's `--turn-time` applies to it).
    public let takesTurns: Bool
    /// The game's own options as the host command's help lists them ("" when it has none).
    public let optionsHelp: String
    /// The long names of the game's own options (`--best-of`).
    let optionNames: [String]
    /// Reads the game's own options from what the host command did not read, and checks them.
    let prepare: @Sendable ([String]) throws -> PreparedGame
    /// A seat for a player of this game at `repl`.
    let seat: @Sendable (GuestREPL) -> any GuestSeat

    /// A game whose own options are `Options`, hosted by `host` with the options given.
    init<Options: ParsableArguments & GameOptions>(
        kind: GameKind, options: Options.Type, seat: @escaping @Sendable (GuestREPL) -> any GuestSeat,
        host: @escaping @Sendable (Options, HostSetup) async throws -> Void
    ) {
        self.kind = kind
        takesTurns = Options.takesTurns
        optionsHelp = GameOptionsHelp.options(of: Options.self)
        optionNames = GameOptionsHelp.names(of: Options.self)
        prepare = { arguments in
            let options: Options
            do { options = try Options.parse(arguments) } catch { throw AppFailure(Options.message(for: error), .usage, underlying: error) }
            // A value the game refuses is said before anything starts.
            do { _ = try options.rules() } catch { throw AppFailure(String(describing: error), .usage, underlying: error) }
            return PreparedGame(kind: kind) { setup in try await host(options, setup) }
        }
        self.seat = seat
    }

    /// Whether the game's own options include `option` (`--best-of`, or `--best-of=5`).
    public func reads(_ option: String) -> Bool {
        optionNames.contains(GameOptionsHelp.name(of: option))
    }

    /// Reads this game's own options from `arguments`, what `command` (the host command) did
    /// not read, and checks them: each option is one of the game's, with a value it takes.
    /// - Returns: the game, ready to host with those options.
    /// - Throws: ``AppFailure`` (a usage error) with the sentence for the person at the keyboard:
    ///   an option of another game names the games that read it; a mistyped one, the option
    ///   of the command or of a game it is nearest to.
    public func prepare(_ arguments: [String], besides command: any ParsableArguments.Type) throws(AppFailure) -> PreparedGame {
        if let option = arguments.first(where: { $0.hasPrefix("--") && !reads($0) }) {
            let name = GameOptionsHelp.name(of: option)
            let readers = GameCatalog.games.filter { $0.reads(name) }
            if !readers.isEmpty { throw refusal(of: name, readers: readers) }
            let known = GameOptionsHelp.names(of: command) + GameCatalog.games.flatMap(\.optionNames)
            if let nearest = CommandSuggestion.closest(to: String(name.dropFirst(2)), among: known.map { String($0.dropFirst(2)) }) {
                throw AppFailure("Unknown option '\(name)'. Did you mean '--\(nearest)'?", .usage)
            }
        }
        do {
            return try prepare(arguments)
        } catch {
            throw error as? AppFailure ?? AppFailure(String(describing: error), .usage, underlying: error)
        }
    }

    /// The sentence refusing `option` for this game: the games that read it, by title and ID.
    public func refusal(of option: String, readers: [PlayableGame]) -> AppFailure {
        AppFailure(
            "\(option) is for \(GameText.list(readers.map(\.kind.title), or: true)) "
                + "(--game \(GameText.list(readers.map(\.kind.id), or: true))), not \(kind.title).", .usage)
    }
}

/// A game with its own options read and checked, ready to host.
public struct PreparedGame: Sendable {
    /// Which game.
    public let kind: GameKind
    /// Hosts the game until it ends.
    let host: @Sendable (HostSetup) async throws -> Void

    /// Hosts this game from `setup`, until it ends.
    public func host(_ setup: HostSetup) async throws {
        try await host(setup)
    }
}
