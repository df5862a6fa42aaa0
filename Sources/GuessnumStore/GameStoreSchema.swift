import GRDB

/// The store's tables, made and changed by migrations (never in place).
///
/// - `meta(key, value)`: `lastSequence`, `hostIdentity`, `hostName`.
/// - `round(number, low, high, secret, salt)`: every round played, the current one last.
/// - `guess(id, round, player, name, value)`: every guess judged, in order.
/// - `player(id, displayName, name)`: the players in their seats, in join order (by rowid).
/// - `score(player, name, wins, guesses, bestRound)`: the scoreboard.
enum GameStoreSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "meta") { table in
                table.primaryKey("key", .text)
                table.column("value", .text).notNull()
            }
            try db.create(table: "round") { table in
                table.primaryKey("number", .integer)
                table.column("low", .integer).notNull()
                table.column("high", .integer).notNull()
                table.column("secret", .integer).notNull()
                table.column("salt", .blob).notNull()
            }
            try db.create(table: "guess") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("round", .integer).notNull().indexed()
                table.column("player", .text).notNull()
                table.column("name", .text).notNull()
                table.column("value", .integer).notNull()
            }
            try db.create(table: "player") { table in
                table.primaryKey("id", .text)
                table.column("displayName", .text).notNull()
                table.column("name", .text).notNull()
            }
            try db.create(table: "score") { table in
                table.primaryKey("player", .text)
                table.column("name", .text).notNull()
                table.column("wins", .integer).notNull()
                table.column("guesses", .integer).notNull()
                table.column("bestRound", .integer)
            }
        }
        return migrator
    }
}
