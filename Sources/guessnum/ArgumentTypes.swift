import ArgumentParser
import GuessnumApp
import GuessnumGame
import Logging
import Multipeer
import SafeText

// The library's values as command-line arguments. ArgumentParser reports a value it cannot
// read as a usage error (exit 64); options use the throwing `parse` as their transform, so
// that the library's own sentence says what is wrong with the value.

extension GuessRange: ExpressibleByArgument {
    public init?(argument: String) {
        guard let range = try? GuessRange(parsing: argument) else { return nil }
        self = range
    }

    /// `--range`'s reader: the range, or the sentence that says what is wrong.
    static func parse(_ text: String) throws -> GuessRange { try GuessRange(parsing: text) }
}

extension Endpoint: ExpressibleByArgument {
    public init?(argument: String) {
        guard let endpoint = try? Endpoint(parsing: argument) else { return nil }
        self = endpoint
    }

    /// `ADDR:PORT`'s reader: the endpoint, or the sentence that says what is wrong (for a word
    /// that could be a game's name, how to join the game of that name).
    static func parse(_ text: String) throws -> Endpoint {
        do { return try Endpoint(parsing: text) } catch {
            guard !text.contains(":"), (try? PeerID.validate(displayName: text)) != nil else { throw error }
            throw AppFailure("\(error.message) To join the game called \(TerminalText.quoted(text)), use: \(ProgramCommand.current()) join --game \(text)", .usage, underlying: error)
        }
    }
}

/// What `guessnum join` is given instead of a game to look for: an address, or a join code.
enum JoinArgument {
    case address(Endpoint)
    case code(JoinCode)

    /// A join code (it starts with `gn1-`), else `ADDR:PORT` (see ``Endpoint/parse(_:)``).
    static func parse(_ text: String) throws -> JoinArgument {
        if text.lowercased().hasPrefix(JoinCode.prefix) { return .code(try JoinCode(parsing: text)) }
        return .address(try Endpoint.parse(text))
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

extension DropTarget: ExpressibleByArgument {
    public init?(argument: String) {
        guard let target = try? SendCommand.parseTarget(argument) else { return nil }
        self = target
    }
}

/// `--game`: which of the program's games a host runs, by its ID — one of ``GameCatalog``'s, the
/// one list of the games (what ArgumentParser validates and completes).
struct GameChoice: ExpressibleByArgument, Sendable {
    /// The game.
    let game: PlayableGame

    /// The catalog's first game (the default).
    static var standard: GameChoice { GameChoice(game: GameCatalog.games[0]) }

    private init(game: PlayableGame) {
        self.game = game
    }

    init?(argument: String) {
        guard let game = GameCatalog.game(id: argument) else { return nil }
        self.game = game
    }

    static var allValueStrings: [String] { GameCatalog.kinds.map(\.id) }
    var defaultValueDescription: String { game.kind.id }
}
