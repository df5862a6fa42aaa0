import Foundation
import GRDB
import GuessnumStore
import MultipeerTestSupport
import Testing

/// A game of guess-the-number interrupted under a release before the one store, resumed by the
/// `guessnum` program of this one: its `NAME.sqlite`, written here with that release's SQL.
@Suite("A game kept by an earlier release, resumed by the program", .timeLimit(.minutes(1)))
struct LegacyResumeTests {
    /// The earlier store's file after a crash: round 2 over 1–10 (secret 7), bob and carol in
    /// their seats, three guesses this round, carol's win of round 1 on the scoreboard.
    static func writeLegacyGame(at file: URL) throws {
        let (bob, carol) = (UUID().uuidString, UUID().uuidString)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: file.path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: LegacyGameFile.schema)
        }
        try queue.write { db in
            try db.execute(sql: "INSERT INTO meta VALUES ('lastSequence', '12'), ('hostName', 'alice')")
            try db.execute(sql: "INSERT INTO round VALUES (1, 1, 100, 42, zeroblob(32)), (2, 1, 10, 7, randomblob(32))")
            try db.execute(sql: "INSERT INTO guess (round, player, name, value) VALUES (1, ?2, 'carol', 42), (2, ?1, 'bob', 3), (2, ?2, 'carol', 9), (2, ?1, 'bob', 5)", arguments: [bob, carol])
            try db.execute(sql: "INSERT INTO player VALUES (?1, 'bob', 'bob'), (?2, 'carol', 'carol')", arguments: [bob, carol])
            try db.execute(sql: "INSERT INTO score VALUES (?1, 'bob', 0, 2, NULL), (?2, 'carol', 1, 2, 1)", arguments: [bob, carol])
        }
        try queue.close()
    }

    @Test("guessnum host --resume goes on with a game an earlier release kept in NAME.sqlite: the same round, range and guesses, its seats held; the game moves to the one store")
    func legacyGameResumes() async throws {
        let alice = TrustTests.person()
        let games = URL(fileURLWithPath: try #require(alice["XDG_STATE_HOME"])).appendingPathComponent("guessnum/games")
        let legacy = games.appendingPathComponent("alice.sqlite")
        try Self.writeLegacyGame(at: legacy)

        let host = try ChildProcess(try guessnumExecutable(), ["host", "--name", "alice", "--resume"], environment: alice)
        defer { host.signal(SIGKILL) }
        #expect(await host.line(containing: "Resuming your game: round 2 (numbers 1–10), 2 players, 3 guesses this round") != nil, "host: \(host.text)")
        #expect(await host.line(containing: "The game resumed at round 2: numbers from 1 to 10.") != nil, "host: \(host.text)")
        #expect(await host.line(containing: "2 seats are held for players who have not come back yet.") != nil, "host: \(host.text)")
        #expect(!FileManager.default.fileExists(atPath: legacy.path), "the old file is taken in and removed")
        #expect(FileManager.default.fileExists(atPath: games.appendingPathComponent("alice-guessnum.sqlite").path))

        host.send(line: "/players")
        let bob = await host.completeLine(containing: "bob ")?.trimmingCharacters(in: .whitespaces)
        let carol = await host.completeLine(containing: "carol ")?.trimmingCharacters(in: .whitespaces)
        #expect(bob?.contains("away") == true && bob?.hasSuffix("0     2") == true, "bob's seat, no win, two guesses this round: \(host.text)")
        #expect(carol?.contains("away") == true && carol?.hasSuffix("1     1") == true, "carol's seat, her win, one guess this round: \(host.text)")
    }
}
