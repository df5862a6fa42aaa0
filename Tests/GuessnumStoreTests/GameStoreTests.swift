import Foundation
import GRDB
import GuessnumGame
@testable import GuessnumStore
import Multipeer
import MultipeerTestSupport
import Testing

/// The host's game in a real SQLite file.
@Suite("The host's game on disk", .timeLimit(.minutes(1)))
struct GameStoreTests {
    let directory = Scratch.path("guessnum-store")
    let alice = PlayerRef(id: UUID(), name: "alice")

    func record() throws -> GameRecord {
        GameRecord(round: RoundRecord(number: 1, range: try GuessRange(1, 100), secret: 42, salt: .random()))
    }

    @Test("A new game, then each tick's changes, read back as the same record after the store is closed; the file is the owner's only")
    func roundTrip() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("games/alice.sqlite")
        var expected = try record()
        do {
            let store = try GameStore(at: file)
            try store.start(expected, host: alice)
            let bob = PlayerRef(id: UUID(), name: "bob")
            var first = GameJournal()
            first.players = [PlayerRecord(id: bob.id, displayName: "bob", name: "bob")]
            first.guesses = [GuessRecord(round: 1, player: bob, guess: 50), GuessRecord(round: 1, player: bob, guess: 42)]
            first.scores = [Scoreboard.Entry(player: bob, wins: 1, guesses: 2, bestRound: 2)]
            first.lastSequence = 5
            var second = GameJournal()
            second.roundStarted = RoundRecord(number: 2, range: try GuessRange(1, 10), secret: 3, salt: .random())
            second.guesses = [GuessRecord(round: 1, player: bob, guess: 7), GuessRecord(round: 2, player: bob, guess: 9)]
            second.players = [PlayerRecord(id: bob.id, displayName: "bob", name: "bobby")]
            second.lastSequence = 9
            for journal in [first, second] {
                store.keep(journal)
                expected.apply(journal)
            }
            await store.waitForWrites()
            #expect(store.hostIdentity() == alice.id)
        }
        let reopened = try GameStore(at: file)
        #expect(try reopened.load() == expected)
        #expect(expected.round.number == 2 && expected.guesses.map(\.guess) == [9] && expected.players.map(\.name) == ["bobby"])
        let permissions = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: file.deletingLastPathComponent().path)[.posixPermissions] as? Int
        #expect(folder == 0o700)
        reopened.delete()
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("A busy tick's guesses, more than one statement inserts, from players taking turns, read back in order")
    func manyGuessesInOrder() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("games/busy.sqlite")
        var expected = try record()
        let store = try GameStore(at: file)
        try store.start(expected, host: alice)
        let bob = PlayerRef(id: UUID(), name: "bob")
        for count in [GameStoreRows.guessesPerStatement * 2 + 5, 1, GameStoreRows.guessesPerStatement] {
            var journal = GameJournal()
            journal.guesses = (0..<count).map { GuessRecord(round: 1, player: $0 % 3 == 0 ? alice : bob, guess: Int64(count * 1000 + $0)) }
            store.keep(journal)
            expected.apply(journal)
        }
        await store.waitForWrites()
        #expect(try store.load() == expected)
        #expect(expected.guesses.count == GameStoreRows.guessesPerStatement * 3 + 6)
        store.delete()
    }

    @Test("An empty store holds no game; a damaged file is a sentence naming it, never a crash")
    func emptyAndDamaged() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = try GameStore(at: directory.appendingPathComponent("empty.sqlite"))
        #expect(try empty.load() == nil)

        let damaged = directory.appendingPathComponent("damaged.sqlite")
        try Data(repeating: 0x5A, count: 8_192).write(to: damaged)
        let error = #expect(throws: GameStoreError.self) { _ = try GameStore(at: damaged).load() }
        #expect(error?.message.contains(damaged.path) == true && error?.message.contains("Delete that file") == true, "\(error?.message ?? "")")
    }

    @Test("A saved game with a value of the wrong type in a column is a sentence naming the file, never a crash", arguments: [
        "UPDATE round SET secret = 'forty-two'", "UPDATE round SET low = 'one'", "UPDATE score SET wins = x'00ff'", "UPDATE player SET name = x'ff00'",
    ])
    func wrongColumnType(damage: String) async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("tampered.sqlite")
        do {
            let store = try GameStore(at: file)
            var record = try record()
            let bob = PlayerRef(id: UUID(), name: "bob")
            record.players = [PlayerRecord(id: bob.id, displayName: "bob", name: "bob")]
            record.scores = [Scoreboard.Entry(player: bob, wins: 1, guesses: 2, bestRound: 2)]
            try store.start(record, host: alice)
            await store.waitForWrites()
        }
        let queue = try DatabaseQueue(path: file.path)
        try await queue.write { db in try db.execute(sql: damage) }
        try queue.close()
        let error = #expect(throws: GameStoreError.self) { _ = try GameStore(at: file).load() }
        #expect(error?.message.contains(file.path) == true, "\(error?.message ?? "")")
    }

    @Test("Any game name maps to one safe file name of its own")
    func fileNames() {
        #expect(GameStore.fileName(forGame: "alice") == "alice.sqlite")
        let odd = ["../etc", "a/b", "Zoë", "", "alice "]
        let names = odd.map(GameStore.fileName(forGame:))
        #expect(Set(names).count == odd.count)
        #expect(names.allSatisfy { !$0.contains("/") && $0.hasSuffix(".sqlite") && !$0.hasPrefix(".") }, "\(names)")
        let environment = ["HOME": "/home/zoe", "XDG_STATE_HOME": "/state"]
        #expect(GameStore.fileURL(forGame: "alice", environment: environment).path == "/state/guessnum/games/alice.sqlite")
        #expect(GameStore.fileURL(forGame: "alice", environment: ["HOME": "/home/zoe"]).path == "/home/zoe/.local/state/guessnum/games/alice.sqlite")
    }
}

@Suite("Game store errors keep their cause", .timeLimit(.minutes(1)))
struct GameStoreErrorCauseTests {
    @Test("A damaged file is a damaged-store error with the sentence naming it and SQLite's error as its cause")
    func damagedKeepsCause() throws {
        let file = Scratch.path("guessnum-damaged", suffix: ".sqlite")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(repeating: 0x5A, count: 8_192).write(to: file)
        let error = #expect(throws: GameStoreError.self) { _ = try GameStore(at: file).load() }
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
        let error = #expect(throws: GameStoreError.self) { _ = try GameStore(at: blocker.appendingPathComponent("games/alice.sqlite")) }
        #expect(error?.code == .unwritable)
        #expect(error?.underlying != nil)
    }
}
