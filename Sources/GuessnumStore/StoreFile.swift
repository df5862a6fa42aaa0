import Crypto
import Foundation
import GRDB
import GuessnumGame
import Logging
import Multipeer
import Synchronization

/// A ``RoomStore``'s file: where a game's file lives, how it is opened (owner-only, WAL,
/// migrated), its writes (in order, off the caller's thread, a failure logged once), how it
/// goes, and the sentences for what can go wrong with it.
final class StoreFile: Sendable {
    /// The database file.
    let url: URL
    /// Its connections.
    let pool: DatabasePool
    private let logger: Logger
    /// Whether a failed write was logged already (one line, not one per tick).
    private let failureLogged = Mutex(false)

    /// Opens (or creates) the database at `url` (see ``open(at:migrator:)``).
    init(at url: URL, migrator: DatabaseMigrator, logger: Logger) throws(GameStoreError) {
        self.url = url
        self.logger = logger
        pool = try Self.open(at: url, migrator: migrator)
    }

    /// Writes `updates` in one transaction after those handed over before; returns at once. A
    /// failed write is logged once (the game goes on; it may then not resume fully).
    func writeLater(_ updates: @escaping @Sendable (Database) throws -> Void) {
        pool.asyncWrite(updates, completion: { [weak self] _, result in
            if case .failure(let error) = result { self?.writeFailed(error) }
        })
    }

    private func writeFailed(_ error: any Error) {
        let first = failureLogged.withLock { logged in
            defer { logged = true }
            return !logged
        }
        guard first else { return }
        logger.warning("Could not keep the game's latest changes; after a crash it may not resume fully.", metadata: [
            "file": .string(url.path), "error": .string(Self.reason(error)),
        ])
    }

    /// Waits until every write handed over so far is done.
    func waitForWrites() async {
        _ = try? await pool.write { _ in }
    }

    /// Closes the database and removes its file and SQLite's files beside it.
    func delete() {
        try? pool.close()
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
    }

    /// The file of the game called `name` (with `suffix` before `.sqlite`, to keep games of
    /// different kinds apart): under `XDG_STATE_HOME`, or `~/.local/state`.
    static func url(forGame name: String, suffix: String = "", environment: [String: String]) -> URL {
        XDGDirectory.state(environment: environment)
            .appendingPathComponent("guessnum/games", isDirectory: true)
            .appendingPathComponent(fileName(forGame: name, suffix: suffix))
    }

    /// A file name for `name` that any name maps to safely: its letters, digits, `-` and `_`,
    /// and, when it has others (or is empty), a short digest of it so that names stay apart.
    static func fileName(forGame name: String, suffix: String = "") -> String {
        let plain = String(name.unicodeScalars.filter { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") }.prefix(40))
        guard plain != name || plain.isEmpty else { return plain + suffix + ".sqlite" }
        let digest = SHA256.hash(data: Data(name.utf8)).prefix(4).map { String(format: "%02x", $0) }.joined()
        return (plain.isEmpty ? "game" : plain) + "-" + digest + suffix + ".sqlite"
    }

    /// Opens (or creates) the database at `fileURL`, readable by its owner only (`0600`, in a
    /// `0700` directory), in WAL mode with `synchronous = NORMAL`, migrated by `migrator`.
    /// - Throws: ``GameStoreError`` with a sentence naming the file: its directory cannot be
    ///   made, or the file is not a database of this program's (damaged, or something else).
    private static func open(at fileURL: URL, migrator: DatabaseMigrator) throws(GameStoreError) -> DatabasePool {
        let directory = fileURL.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            if !FileManager.default.fileExists(atPath: fileURL.path) {
                guard FileManager.default.createFile(atPath: fileURL.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                    throw GameStoreError(.unwritable, "could not create the file")
                }
            }
        } catch {
            throw GameStoreError(.unwritable, "Could not keep the game in \(fileURL.path) (\(reason(error))); check that \(directory.path) is writable.", underlying: error)
        }
        do {
            var configuration = Configuration()
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
            }
            let pool = try DatabasePool(path: fileURL.path, configuration: configuration)
            try migrator.migrate(pool)
            return pool
        } catch {
            throw damaged(fileURL, error)
        }
    }

    static func damaged(_ fileURL: URL, _ error: any Error) -> GameStoreError {
        GameStoreError(.damaged, "The saved game in \(fileURL.path) cannot be read (\(reason(error))). Delete that file to start a new game under this name.", underlying: error)
    }

    static func reason(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
        if let error = error as? GameStoreError { return error.message }
        return error.localizedDescription
    }
}
