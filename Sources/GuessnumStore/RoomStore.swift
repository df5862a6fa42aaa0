import Foundation
import GRDB
import GuessnumGame
import Logging
import Synchronization

/// A room game on disk, any game, in SQLite through GRDB, so that it can be resumed after the
/// host's program ends without ending it (a crash, `kill -9`, a power cut).
///
/// One file per game name and game: `$XDG_STATE_HOME/guessnum/games/NAME-GAME.sqlite`, owner
/// only, WAL mode with `synchronous = NORMAL` (a committed tick survives a crash; a power cut
/// may lose the last ones). It is the room's observer: its host hands it each tick that changed
/// the room, under the room's lock and in order, and the store writes it off that lock, one
/// transaction per tick, in order.
///
/// What it writes is a journal in the room layer's terms: a ``Rooms/RoomSnapshot`` of the
/// room, then one ``Rooms/RoomJournalEntry`` per tick (its rules' ``Rooms/GameRules/JournalEntry``:
/// guess-the-number's guesses), compacted into a fresh snapshot whenever the rules ask for one
/// (a new round) or after ``compactionLimit`` entries. Rules with no entry of their own
/// (tic-tac-toe, rock-paper-scissors, Snap) are kept as a snapshot every tick. ``load()``
/// reads the snapshot and replays the entries since.
public final class RoomStore<Rules: GameRules & Codable>: RoomObserver, Sendable {
    /// The database file.
    public var fileURL: URL { file.url }
    let file: StoreFile
    /// Entries appended since the last snapshot of this program's life (nil: none written yet).
    private let entriesSinceSnapshot = Mutex<Int?>(nil)

    /// The most entries appended after a snapshot before the next tick writes a fresh one.
    public static var compactionLimit: Int { 500 }

    /// The file of the game of this kind called `name`: under `XDG_STATE_HOME`, or `~/.local/state`.
    public static func fileURL(forGame name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        StoreFile.url(forGame: name, suffix: "-" + Rules.kind.id, environment: environment)
    }

    /// Opens (or creates) the store at `fileURL`.
    /// - Throws: ``GameStoreError`` with a sentence naming the file.
    public init(at fileURL: URL, logger: Logger = Logger(label: "guessnum.store")) throws(GameStoreError) {
        file = try StoreFile(at: fileURL, migrator: Self.migrator, logger: logger)
    }

    /// `room(id, game, snapshot)`: one row, the room as JSON; `entry(id, body)`: each tick since,
    /// in order, as JSON.
    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("room-v1") { db in
            try db.create(table: "room") { table in
                table.primaryKey("id", .integer).check { $0 == 1 }
                table.column("game", .text).notNull()
                table.column("snapshot", .blob).notNull()
            }
        }
        migrator.registerMigration("journal-v1") { db in
            try db.create(table: "entry") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("body", .blob).notNull()
            }
        }
        return migrator
    }

    /// The room kept, if any: its last snapshot with every entry since applied.
    /// - Throws: ``GameStoreError`` when the file cannot be read as a room of this game.
    public func load() throws(GameStoreError) -> RoomSnapshot<Rules>? {
        let kept: (row: Row, entries: [Data])?
        do {
            kept = try file.pool.read { db in
                guard let row = try Row.fetchOne(db, sql: "SELECT game, snapshot FROM room WHERE id = 1") else { return nil }
                return (row, try Data.fetchAll(db, sql: "SELECT body FROM entry ORDER BY id"))
            }
        } catch {
            throw StoreFile.damaged(fileURL, error)
        }
        guard let (row, entries) = kept else { return nil }
        do {
            let game: String = try row.decode(forColumn: "game")
            let decoder = JSONDecoder()
            var snapshot = try decoder.decode(RoomSnapshot<Rules>.self, from: try row.decode(Data.self, forColumn: "snapshot"))
            guard game == Rules.kind.id, snapshot.game == Rules.kind.id else {
                throw GameStoreError(.damaged, "it holds a game of \(game), not \(Rules.kind.title)")
            }
            for entry in entries { snapshot.apply(try decoder.decode(RoomJournalEntry<Rules>.self, from: entry)) }
            return snapshot
        } catch {
            throw StoreFile.damaged(fileURL, error)
        }
    }

    /// Writes `snapshot` in place of what the store held (its entries included); returns at
    /// once (written in order).
    public func keep(_ snapshot: RoomSnapshot<Rules>) {
        entriesSinceSnapshot.withLock { $0 = 0 }
        file.writeLater { db in try Self.write(snapshot, in: db) }
    }

    /// Appends `entry`, one tick's changes since what the store holds; returns at once.
    public func append(_ entry: RoomJournalEntry<Rules>) {
        file.writeLater { db in
            let body = try entry.handWrittenJSON.map { Data($0) } ?? JSONEncoder().encode(entry)
            try db.cachedStatement(sql: "INSERT INTO entry (body) VALUES (?)").execute(arguments: [body])
        }
    }

    static func write(_ snapshot: RoomSnapshot<Rules>, in db: Database) throws {
        try db.execute(sql: "DELETE FROM entry")
        try db.execute(
            sql: "INSERT OR REPLACE INTO room (id, game, snapshot) VALUES (1, ?, ?)",
            arguments: [snapshot.game, try JSONEncoder().encode(snapshot)])
    }

    /// Waits until every snapshot and entry handed over so far is written.
    public func waitForWrites() async {
        await file.waitForWrites()
    }

    /// Removes the game (it ended as it should): the file and SQLite's files beside it.
    public func delete() {
        file.delete()
    }

    // MARK: The room's observer

    /// The tick's entry, or a fresh snapshot: the first of this program's life, when the rules
    /// ask for one, or after ``compactionLimit`` entries.
    package func keep(_ items: [RoomItem<Rules>], of table: RoomTable<Rules>) {
        let entry = entriesSinceSnapshot.withLock { appended -> RoomJournalEntry<Rules>? in
            guard let count = appended, count < Self.compactionLimit, let entry = table.journalEntry(for: items) else { return nil }
            appended = count + 1
            return entry
        }
        if let entry { append(entry) } else { keep(table.snapshot) }
    }

    package func report(_ items: [RoomItem<Rules>], passwordRefusals: [PasswordRefusals]) {}

    /// The host's screen reads the room's activity as it would without a store.
    package var leavesActivity: Bool { true }
}
