import Foundation
import GRDB
import GuessnumGame
import Logging
import Multipeer

/// A host's game on disk, in SQLite through GRDB, so that it can be resumed after the host's
/// program ends without ending it (a crash, `kill -9`, a power cut).
///
/// One file per game name: `$XDG_STATE_HOME/guessnum/games/NAME.sqlite`
/// (`~/.local/state/guessnum/games/…`), readable by its owner only (`0600`, in a `0700`
/// directory). The database runs in WAL mode with `synchronous = NORMAL`: a transaction that
/// has committed survives the program's crash; a power cut may lose the last ones.
///
/// ``start(_:host:)`` writes a new game; ``keep(_:)`` then takes each tick's ``GameJournal``
/// and writes it in one transaction, in order, off the caller's thread; ``load()`` reads the
/// game back as a ``GameRecord``; ``delete()`` removes the file when the game ends as it should.
public final class GameStore: GameJournalSink {
    /// The database file.
    public var fileURL: URL { file.url }
    private let file: StoreFile
    private var pool: DatabasePool { file.pool }

    /// The file of the game called `name`: under `XDG_STATE_HOME`, or `~/.local/state`.
    public static func fileURL(forGame name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        StoreFile.url(forGame: name, environment: environment)
    }

    /// A file name for `name` that any name maps to safely (see ``StoreFile/fileName(forGame:suffix:)``).
    static func fileName(forGame name: String) -> String { StoreFile.fileName(forGame: name) }

    /// Opens (or creates) the store at `fileURL`.
    /// - Throws: ``GameStoreError`` with a sentence naming the file: its directory cannot be
    ///   made, or the file is not a database of this program's (damaged, or something else).
    public init(at fileURL: URL, logger: Logger = Logger(label: "guessnum.store")) throws(GameStoreError) {
        file = try StoreFile(at: fileURL, migrator: GameStoreSchema.migrator, logger: logger)
    }

    /// The game kept, if any.
    /// - Throws: ``GameStoreError`` when the file cannot be read as a game.
    public func load() throws(GameStoreError) -> GameRecord? {
        do {
            return try pool.read { db in try GameStoreRows.record(in: db) }
        } catch let error as GameStoreError {
            throw error
        } catch {
            throw StoreFile.damaged(fileURL, error)
        }
    }

    /// The identity of the host that kept the game, if any.
    public func hostIdentity() -> UUID? {
        (try? pool.read { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'hostIdentity'") }).flatMap { $0.flatMap(UUID.init(uuidString:)) }
    }

    /// Replaces whatever the store held with `record`, a new game hosted as `host`.
    /// - Throws: ``GameStoreError`` when it cannot be written.
    public func start(_ record: GameRecord, host: PlayerRef) throws(GameStoreError) {
        do {
            try pool.write { db in
                for table in ["meta", "round", "guess", "player", "score"] { try db.execute(sql: "DELETE FROM \(table)") }
                try GameStoreRows.setMeta("hostIdentity", host.id.uuidString, in: db)
                try GameStoreRows.setMeta("hostName", host.name, in: db)
                try GameStoreRows.write(record, in: db)
            }
        } catch {
            throw GameStoreError(.unwritable, "Could not write the game to \(fileURL.path): \(StoreFile.reason(error)).", underlying: error)
        }
    }

    /// Writes one tick's changes, in one transaction, after those handed over before; returns
    /// at once. A failed write is logged once (the game goes on; it may then not resume fully).
    public func keep(_ journal: GameJournal) {
        file.writeLater { db in try GameStoreRows.apply(journal, in: db) }
    }

    /// Waits until every change handed over so far is written.
    public func waitForWrites() async {
        await file.waitForWrites()
    }

    /// Removes the game (it ended as it should): the file and SQLite's files beside it.
    public func delete() {
        file.delete()
    }
}
