import Foundation
import GRDB
import GuessnumGame
@testable import GuessnumStore
import Multipeer
import MultipeerTestSupport
import Testing

/// A game kept by the store of earlier releases (`NAME.sqlite`: meta, round, guess, player and
/// score rows), written here with that store's own SQL, taken into the room store and resumed.
@Suite("A game kept by an earlier release", .timeLimit(.minutes(1)))
struct LegacyGameFileTests {
    let directory = Scratch.path("guessnum-store")
    let alice = PlayerRef(id: UUID(), name: "alice")
    let bob = PlayerRef(id: UUID(), name: "bob")
    let carol = PlayerRef(id: UUID(), name: "carol")

    /// A file as the earlier store left it after a crash: carol won round 1 (secret 42); round 2
    /// (1–10, secret 7, `salt`) has `guesses` by bob and carol in turn; bob renamed himself bobby.
    func writeLegacyGame(at file: URL, salt: Salt, guesses: [Int64]) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: file.path)
        try queue.writeWithoutTransaction { db in try db.execute(sql: LegacyGameFile.schema) }
        try queue.write { db in
            for (key, value) in [("hostIdentity", alice.id.uuidString), ("hostName", "alice"), ("lastSequence", "17")] {
                try db.execute(sql: "INSERT INTO meta (key, value) VALUES (?, ?)", arguments: [key, value])
            }
            try db.execute(sql: "INSERT INTO round VALUES (1, 1, 100, 42, ?)", arguments: [Data(Salt.random().bytes)])
            try db.execute(sql: "INSERT INTO round VALUES (2, 1, 10, 7, ?)", arguments: [Data(salt.bytes)])
            try db.execute(sql: "INSERT INTO guess (round, player, name, value) VALUES (1, ?, 'carol', 42)", arguments: [carol.id.uuidString])
            for (index, guess) in guesses.enumerated() {
                let player = index.isMultiple(of: 2) ? bob : carol
                try db.execute(
                    sql: "INSERT INTO guess (round, player, name, value) VALUES (2, ?, ?, ?)", arguments: [player.id.uuidString, player.name, guess])
            }
            try db.execute(sql: "INSERT INTO player VALUES (?, 'bob', 'bobby')", arguments: [bob.id.uuidString])
            try db.execute(sql: "INSERT INTO player VALUES (?, 'carol', 'carol')", arguments: [carol.id.uuidString])
            try db.execute(sql: "INSERT INTO score VALUES (?, 'carol', 1, 1, 1)", arguments: [carol.id.uuidString])
            try db.execute(sql: "INSERT INTO score VALUES (?, 'bobby', 0, 3, NULL)", arguments: [bob.id.uuidString])
        }
        try queue.close()
    }

    @Test("A game kept by the earlier store is taken into the room store and resumes with the same round, commitment, guesses in order, seats, scores and numbering; the old file is gone")
    func adoptedAndResumed() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = ["XDG_STATE_HOME": directory.path]
        let legacy = RoomStore<GuessRules>.legacyFileURL(forGame: "alice", environment: environment)
        let salt = Salt.random()
        let guesses: [Int64] = (0..<71).map { Int64($0 % 6) + 1 } + [7, 9]  // 71 misses, carol's win, one after it
        try writeLegacyGame(at: legacy, salt: salt, guesses: guesses)

        let file = RoomStore<GuessRules>.fileURL(forGame: "alice", environment: environment)
        #expect(file.lastPathComponent == "alice-guessnum.sqlite" && legacy.lastPathComponent == "alice.sqlite")
        try RoomStore<GuessRules>(at: file).adoptLegacyGame(at: legacy)
        #expect(!FileManager.default.fileExists(atPath: legacy.path), "the old file is removed once taken in")

        let kept = try #require(try RoomStore<GuessRules>(at: file).load(), "the game is in the new store, read back after it was closed")
        let round = try #require(kept.rules.currentRound)
        let small = try GuessRange(1, 10)
        #expect(kept.round == 2 && round.range == small && round.secret == 7)
        #expect(round.commitment == Commitment(secret: 7, salt: salt), "the same commitment: players' fairness checks still hold")
        #expect(round.history.map(\.guess) == guesses, "every guess, in order")
        #expect(round.history.last?.verdict == .roundOver && round.winner?.id == carol.id && round.countedGuesses == 72)
        #expect(kept.rules.reveal?.winner?.id == carol.id && kept.rules.reveal?.sequence == 17 + RoomSnapshot<GuessRules>.resumeGap)
        #expect(kept.seats.map(\.player.name) == ["bobby", "carol"] && kept.seats.map(\.displayName) == ["bob", "carol"])
        #expect(kept.rules.scoreboard.entry(for: bob.id) == Scoreboard.Entry(player: PlayerRef(id: bob.id, name: "bobby"), wins: 0, guesses: 3))
        #expect(kept.wins[carol.id] == 1 && kept.lastSequence == 17)

        var table = RoomTable(rules: GuessRules(settings: GuessSettings()), configuration: RoomConfiguration(), host: alice, moveThrottle: .moves)
        table.resume(from: kept, at: .now)
        #expect(table.round == 2 && table.lastSequence == 17 + RoomSnapshot<GuessRules>.resumeGap)
        #expect(table.seats.away.count == 2, "both seats held until their players come back")
        #expect(table.rules.currentRound?.guesses(by: carol.id) == round.guesses(by: carol.id))

        try RoomStore<GuessRules>(at: file).adoptLegacyGame(at: legacy)
        #expect(try RoomStore<GuessRules>(at: file).load()?.lastSequence == 17, "no old file: nothing changes")
    }

    @Test("An old file with no game holds nothing; a damaged one is a sentence naming it, never a crash")
    func emptyAndDamaged() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let empty = directory.appendingPathComponent("empty.sqlite")
        let queue = try DatabaseQueue(path: empty.path)
        try queue.writeWithoutTransaction { db in try db.execute(sql: LegacyGameFile.schema) }
        try queue.close()
        let store = try RoomStore<GuessRules>(at: directory.appendingPathComponent("empty-guessnum.sqlite"))
        try store.adoptLegacyGame(at: empty)
        #expect(try store.load() == nil)

        let damaged = directory.appendingPathComponent("damaged.sqlite")
        try Data(repeating: 0x5A, count: 8_192).write(to: damaged)
        let error = #expect(throws: GameStoreError.self) { try store.adoptLegacyGame(at: damaged) }
        #expect(error?.message.contains(damaged.path) == true && error?.message.contains("Delete that file") == true, "\(error?.message ?? "")")
    }

    @Test("An old file with a value of the wrong type in a column is a sentence naming the file, never a crash", arguments: [
        "UPDATE round SET secret = 'forty-two'", "UPDATE round SET low = 'one'", "UPDATE score SET wins = x'00ff'", "UPDATE player SET name = x'ff00'",
        "UPDATE round SET salt = x'00'", "UPDATE guess SET player = 'nobody'",
    ])
    func wrongColumnType(damage: String) throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("tampered.sqlite")
        try writeLegacyGame(at: file, salt: .random(), guesses: [3])
        let queue = try DatabaseQueue(path: file.path)
        try queue.write { db in try db.execute(sql: damage) }
        try queue.close()
        let store = try RoomStore<GuessRules>(at: directory.appendingPathComponent("tampered-guessnum.sqlite"))
        let error = #expect(throws: GameStoreError.self) { try store.adoptLegacyGame(at: file) }
        #expect(error?.message.contains(file.path) == true, "\(error?.message ?? "")")
    }

    @Test("Any game name maps to one safe file name of its own")
    func fileNames() {
        #expect(StoreFile.fileName(forGame: "alice") == "alice.sqlite")
        let odd = ["../etc", "a/b", "Zoë", "", "alice "]
        let names = odd.map { StoreFile.fileName(forGame: $0) }
        #expect(Set(names).count == odd.count)
        #expect(names.allSatisfy { !$0.contains("/") && $0.hasSuffix(".sqlite") && !$0.hasPrefix(".") }, "\(names)")
        let environment = ["HOME": "/home/zoe", "XDG_STATE_HOME": "/state"]
        #expect(RoomStore<GuessRules>.legacyFileURL(forGame: "alice", environment: environment).path == "/state/guessnum/games/alice.sqlite")
        #expect(RoomStore<GuessRules>.fileURL(forGame: "alice", environment: ["HOME": "/home/zoe"]).path == "/home/zoe/.local/state/guessnum/games/alice-guessnum.sqlite")
    }
}

@Suite("Game store errors keep their cause", .timeLimit(.minutes(1)))
struct GameStoreErrorCauseTests {
    @Test("A damaged file is a damaged-store error with the sentence naming it and SQLite's error as its cause")
    func damagedKeepsCause() throws {
        let file = Scratch.path("guessnum-damaged", suffix: ".sqlite")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(repeating: 0x5A, count: 8_192).write(to: file)
        let error = #expect(throws: GameStoreError.self) { _ = try RoomStore<GuessRules>(at: file).load() }
        #expect(error?.code == .damaged)
        #expect(error?.message.contains(file.path) == true, "\(error?.message ?? "")")
        #expect(error?.underlying is DatabaseError, "\(String(reflecting: error))")
        #expect(error?.debugDescription.contains("[damaged] (caused by: ") == true)
    }

    @Test("A directory that cannot be made is an unwritable-store error")
    func unwritable() throws {
        let blocker = Scratch.path("guessnum-blocker")
        try Data("x".utf8).write(to: blocker)
        defer { try? FileManager.default.removeItem(at: blocker) }
        let error = #expect(throws: GameStoreError.self) { _ = try RoomStore<GuessRules>(at: blocker.appendingPathComponent("games/alice-guessnum.sqlite")) }
        #expect(error?.code == .unwritable)
        #expect(error?.underlying != nil)
    }
}
