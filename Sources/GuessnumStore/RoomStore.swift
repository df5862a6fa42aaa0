import Foundation
import GRDB
import GuessnumGame
import Logging

/// A room game on disk (tic-tac-toe, rock-paper-scissors), in SQLite through GRDB, so that it
/// can be resumed after the host's program ends without ending it (a crash, `kill -9`).
///
/// One file per game name and game: `$XDG_STATE_HOME/guessnum/games/NAME-GAME.sqlite`, owner
/// only, WAL mode, as ``GameStore``'s. It holds one ``Rooms/RoomSnapshot`` of the room: a
/// room's host hands it over after each tick that changed the room (it is the room's
/// observer), and it is written off the room's lock, in order, the newest replacing the last.
public final class RoomStore<Rules: GameRules & Codable>: RoomObserver, Sendable {
    /// The database file.
    public var fileURL: URL { file.url }
    private let file: StoreFile

    /// The file of the game of this kind called `name`: under `XDG_STATE_HOME`, or `~/.local/state`.
    public static func fileURL(forGame name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        StoreFile.url(forGame: name, suffix: "-" + Rules.kind.id, environment: environment)
    }

    /// Opens (or creates) the store at `fileURL`.
    /// - Throws: ``GameStoreError`` with a sentence naming the file.
    public init(at fileURL: URL, logger: Logger = Logger(label: "guessnum.store")) throws(GameStoreError) {
        file = try StoreFile(at: fileURL, migrator: Self.migrator, logger: logger)
    }

    /// `room(id, game, snapshot)`: one row, the room as JSON.
    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("room-v1") { db in
            try db.create(table: "room") { table in
                table.primaryKey("id", .integer).check { $0 == 1 }
                table.column("game", .text).notNull()
                table.column("snapshot", .blob).notNull()
            }
        }
        return migrator
    }

    /// The room kept, if any.
    /// - Throws: ``GameStoreError`` when the file cannot be read as a room of this game.
    public func load() throws(GameStoreError) -> RoomSnapshot<Rules>? {
        let row: Row?
        do { row = try file.pool.read { db in try Row.fetchOne(db, sql: "SELECT game, snapshot FROM room WHERE id = 1") } } catch {
            throw StoreFile.damaged(fileURL, error)
        }
        guard let row else { return nil }
        let game: String = row["game"]
        let data: Data = row["snapshot"]
        do {
            let snapshot = try JSONDecoder().decode(RoomSnapshot<Rules>.self, from: data)
            guard game == Rules.kind.id, snapshot.game == Rules.kind.id else {
                throw GameStoreError(.damaged, "it holds a game of \(game), not \(Rules.kind.title)")
            }
            return snapshot
        } catch {
            throw StoreFile.damaged(fileURL, error)
        }
    }

    /// Writes `snapshot` in place of what the store held; returns at once (written in order).
    public func keep(_ snapshot: RoomSnapshot<Rules>) {
        file.writeLater { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO room (id, game, snapshot) VALUES (1, ?, ?)",
                arguments: [snapshot.game, try JSONEncoder().encode(snapshot)])
        }
    }

    /// Waits until every snapshot handed over so far is written.
    public func waitForWrites() async {
        await file.waitForWrites()
    }

    /// Removes the game (it ended as it should): the file and SQLite's files beside it.
    public func delete() {
        file.delete()
    }

    // MARK: The room's observer

    package func keep(_ items: [RoomItem<Rules>], of table: RoomTable<Rules>) {
        keep(table.snapshot)
    }

    package func report(_ items: [RoomItem<Rules>], passwordRefusals: [PasswordRefusals]) {}

    /// The host's screen reads the room's activity as it would without a store.
    package var leavesActivity: Bool { true }
}
