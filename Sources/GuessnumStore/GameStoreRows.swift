import Foundation
import GRDB
import GuessnumGame

/// The store's rows to and from the game's values.
enum GameStoreRows {
    static func setMeta(_ key: String, _ value: String, in db: Database) throws {
        try db.cachedStatement(sql: "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
            .execute(arguments: [key, value])
    }

    /// Writes the whole of `record` (into empty tables).
    static func write(_ record: GameRecord, in db: Database) throws {
        var journal = GameJournal()
        journal.roundStarted = record.round
        journal.guesses = record.guesses
        journal.players = record.players
        journal.scores = record.scores
        journal.lastSequence = record.lastSequence
        try apply(journal, in: db)
        try setMeta("lastSequence", String(record.lastSequence), in: db)
    }

    /// Writes one tick's changes. The statements are prepared once per connection (GRDB's
    /// statement cache): a busy tick writes dozens of rows.
    static func apply(_ journal: GameJournal, in db: Database) throws {
        if let round = journal.roundStarted {
            try db.cachedStatement(
                sql: "INSERT OR REPLACE INTO round (number, low, high, secret, salt) VALUES (?, ?, ?, ?, ?)")
                .execute(arguments: [round.number, round.range.lowerBound, round.range.upperBound, round.secret, Data(round.salt.bytes)])
        }
        let current = journal.roundStarted?.number
        try insert(journal.guesses.filter { current == nil || $0.round == current }, in: db)
        for player in journal.players {
            try db.cachedStatement(
                sql: "INSERT INTO player (id, displayName, name) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET displayName = excluded.displayName, name = excluded.name")
                .execute(arguments: [player.id.uuidString, player.displayName, player.name])
        }
        for id in journal.playersGone {
            try db.cachedStatement(sql: "DELETE FROM player WHERE id = ?").execute(arguments: [id.uuidString])
        }
        for entry in journal.scores {
            try db.cachedStatement(
                sql: """
                    INSERT INTO score (player, name, wins, guesses, bestRound) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(player) DO UPDATE SET name = excluded.name, wins = excluded.wins, guesses = excluded.guesses, bestRound = excluded.bestRound
                    """)
                .execute(arguments: [entry.player.id.uuidString, entry.player.name, entry.wins, entry.guesses, entry.bestRound])
        }
        if journal.lastSequence > 0 { try setMeta("lastSequence", String(journal.lastSequence), in: db) }
    }

    /// The most guesses one statement inserts: a busy tick's hundreds of rows take a few
    /// statements instead of one each (4 parameters a row, far below SQLite's limit).
    static let guessesPerStatement = 32

    /// The statement inserting `n` guesses, at index `n` (made once, not on every tick).
    private static let guessInserts: [String] = (0...guessesPerStatement).map { rows in
        "INSERT INTO guess (round, player, name, value) VALUES " + repeatElement("(?, ?, ?, ?)", count: rows).joined(separator: ", ")
    }

    /// Inserts `guesses` in order, up to ``guessesPerStatement`` rows a statement (one prepared
    /// statement per row count, kept in GRDB's cache), each player's identity as text once.
    static func insert(_ guesses: [GuessRecord], in db: Database) throws {
        var identities = IdentityTexts()
        var start = 0
        while start < guesses.count {
            let rows = guesses[start..<min(start + guessesPerStatement, guesses.count)]
            var values: [(any DatabaseValueConvertible)?] = []
            values.reserveCapacity(rows.count * 4)
            for guess in rows {
                values.append(guess.round)
                values.append(identities.text(of: guess.player.id))
                values.append(guess.player.name)
                values.append(guess.guess)
            }
            try db.cachedStatement(sql: guessInserts[rows.count]).execute(arguments: StatementArguments(values))
            start += rows.count
        }
    }

    /// A player's identity as the store writes it (`UUID.uuidString`), formatted once per
    /// player rather than once per row: Foundation formats it with `sprintf`.
    private struct IdentityTexts {
        private var last: (id: UUID, text: String)?

        mutating func text(of id: UUID) -> String {
            if let last, last.id == id { return last.text }
            let text = id.uuidString
            last = (id, text)
            return text
        }
    }

    /// The game the tables hold; nil when they hold none.
    static func record(in db: Database) throws -> GameRecord? {
        // Every column is read with a throwing decode: a value of the wrong type (a damaged or
        // tampered file) is an error the host turns into a sentence, never a crash.
        guard let row = try Row.fetchOne(db, sql: "SELECT number, low, high, secret, salt FROM round ORDER BY number DESC LIMIT 1") else { return nil }
        let number: Int = try row.decode(forColumn: "number")
        let saltBytes: Data = try row.decode(forColumn: "salt")
        guard let salt = Salt(bytes: Array(saltBytes)) else { throw GameStoreError(.damaged, "a round's salt is not 32 bytes") }
        let (low, high): (Int64, Int64) = (try row.decode(forColumn: "low"), try row.decode(forColumn: "high"))
        let range: GuessRange
        do { range = try GuessRange(low, high) } catch { throw GameStoreError(.damaged, "a round's range is not valid (\(error.message))", underlying: error) }
        let round = RoundRecord(number: number, range: range, secret: try row.decode(forColumn: "secret"), salt: salt)
        let guesses = try Row.fetchAll(db, sql: "SELECT player, name, value FROM guess WHERE round = ? ORDER BY id", arguments: [number]).map { row in
            try GuessRecord(round: number, player: player(row), guess: row.decode(forColumn: "value"))
        }
        let players = try Row.fetchAll(db, sql: "SELECT id, displayName, name FROM player ORDER BY rowid").map { row in
            try PlayerRecord(id: uuid(row.decode(forColumn: "id")), displayName: row.decode(forColumn: "displayName"), name: row.decode(forColumn: "name"))
        }
        let scores = try Row.fetchAll(db, sql: "SELECT player, name, wins, guesses, bestRound FROM score").map { row in
            try Scoreboard.Entry(
                player: player(row), wins: row.decode(forColumn: "wins"), guesses: row.decode(forColumn: "guesses"),
                bestRound: row.decode(forColumn: "bestRound"))
        }
        let sequence = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'lastSequence'").flatMap(UInt64.init) ?? 0
        return GameRecord(round: round, guesses: guesses, players: players, scores: scores, lastSequence: sequence)
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
