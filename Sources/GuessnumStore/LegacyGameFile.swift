import Foundation
import GRDB
import GuessnumGame

/// The file in which releases before the one store kept a game of guess-the-number
/// (`$XDG_STATE_HOME/guessnum/games/NAME.sqlite`, tables `meta`, `round`, `guess`, `player` and
/// `score`): read once, so that a game interrupted under such a release still resumes, then
/// removed. Nothing writes it any more.
package enum LegacyGameFile {
    /// The tables the earlier store's migration `v1` made, in WAL mode as it ran: what this
    /// reader expects (the tests write files of that release with it).
    package static let schema = """
        PRAGMA journal_mode = WAL;
        CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
        INSERT INTO grdb_migrations VALUES ('v1');
        CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
        CREATE TABLE round (number INTEGER PRIMARY KEY NOT NULL, low INTEGER NOT NULL, high INTEGER NOT NULL, secret INTEGER NOT NULL, salt BLOB NOT NULL);
        CREATE TABLE guess (id INTEGER PRIMARY KEY AUTOINCREMENT, round INTEGER NOT NULL, player TEXT NOT NULL, name TEXT NOT NULL, value INTEGER NOT NULL);
        CREATE INDEX guess_on_round ON guess(round);
        CREATE TABLE player (id TEXT PRIMARY KEY NOT NULL, displayName TEXT NOT NULL, name TEXT NOT NULL);
        CREATE TABLE score (player TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL, wins INTEGER NOT NULL, guesses INTEGER NOT NULL, bestRound INTEGER);
        """

    /// The game the file at `url` holds, as a room of ``GuessRules``; nil when there is no file
    /// or it holds no game.
    /// - Throws: ``GameStoreError`` with a sentence naming the file when it cannot be read.
    static func snapshot(at url: URL) throws(GameStoreError) -> RoomSnapshot<GuessRules>? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            let queue = try DatabaseQueue(path: url.path)
            defer { try? queue.close() }
            return try queue.read { db in try snapshot(in: db) }
        } catch {
            throw StoreFile.damaged(url, error)
        }
    }

    /// The game the tables hold; nil when they hold none. Every column is read with a throwing
    /// decode: a value of the wrong type (a damaged or tampered file) is an error, never a crash.
    private static func snapshot(in db: Database) throws -> RoomSnapshot<GuessRules>? {
        guard try db.tableExists("round"),
            let row = try Row.fetchOne(db, sql: "SELECT number, low, high, secret, salt FROM round ORDER BY number DESC LIMIT 1")
        else { return nil }
        let number: Int = try row.decode(forColumn: "number")
        guard let salt = Salt(bytes: Array(try row.decode(Data.self, forColumn: "salt"))) else {
            throw GameStoreError(.damaged, "a round's salt is not 32 bytes")
        }
        let range: GuessRange
        do { range = try GuessRange(try row.decode(forColumn: "low"), try row.decode(forColumn: "high")) } catch let error as GameError {
            throw GameStoreError(.damaged, "a round's range is not valid (\(error.message))", underlying: error)
        }
        let settings = GuessSettings(range: range)
        var round = try Round(number: number, range: range, secret: row.decode(forColumn: "secret"), salt: salt, historyLimit: settings.historyLimit)
        for guess in try Row.fetchAll(db, sql: "SELECT player, name, value FROM guess WHERE round = ? ORDER BY id", arguments: [number]) {
            _ = round.judge(guess: try guess.decode(forColumn: "value"), by: try player(guess))
        }
        var scoreboard = Scoreboard()
        for entry in try Row.fetchAll(db, sql: "SELECT player, name, wins, guesses, bestRound FROM score") {
            scoreboard.set(try Scoreboard.Entry(
                player: player(entry), wins: entry.decode(forColumn: "wins"), guesses: entry.decode(forColumn: "guesses"),
                bestRound: entry.decode(forColumn: "bestRound")))
        }
        let seats = try Row.fetchAll(db, sql: "SELECT id, displayName, name FROM player ORDER BY rowid").map { row in
            try RoomSnapshot<GuessRules>.Seat(
                player: PlayerRef(id: uuid(row.decode(forColumn: "id")), name: row.decode(forColumn: "name")), displayName: row.decode(forColumn: "displayName"))
        }
        let lastSequence = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'lastSequence'").flatMap(UInt64.init) ?? 0
        let rules = GuessRules(
            settings: settings, secretSource: .secureRandom, resuming: round, scoreboard: scoreboard,
            revealSequence: lastSequence &+ RoomSnapshot<GuessRules>.resumeGap)
        return RoomSnapshot(
            game: GuessRules.kind.id, rules: rules, round: number, lastSequence: lastSequence, seats: seats,
            wins: Dictionary(scoreboard.ranked.map { ($0.player.id, $0.wins) }, uniquingKeysWith: max))
    }

    /// The player a row's `player` and `name` columns name.
    private static func player(_ row: Row) throws -> PlayerRef {
        try PlayerRef(id: uuid(row.decode(forColumn: "player")), name: row.decode(forColumn: "name"))
    }

    private static func uuid(_ text: String) throws -> UUID {
        guard let id = UUID(uuidString: text) else { throw GameStoreError(.damaged, "an identity is not valid (\(text))") }
        return id
    }
}

extension RoomStore where Rules == GuessRules {
    /// The file an earlier release kept the game called `name` in (``LegacyGameFile``).
    public static func legacyFileURL(forGame name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        StoreFile.url(forGame: name, environment: environment)
    }

    /// Takes in the game an earlier release kept at `legacyURL`, when there is one and this store
    /// holds none: written here as a snapshot, at once, then the old file removed.
    /// - Throws: ``GameStoreError`` with a sentence naming the file that cannot be read or written.
    public func adoptLegacyGame(at legacyURL: URL) throws(GameStoreError) {
        guard let snapshot = try LegacyGameFile.snapshot(at: legacyURL) else { return }
        if try load() == nil {
            do { try file.pool.write { db in try Self.write(snapshot, in: db) } } catch {
                throw GameStoreError(.unwritable, "Could not write the game to \(fileURL.path): \(StoreFile.reason(error)).", underlying: error)
            }
        }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: legacyURL.path + suffix) }
    }
}
