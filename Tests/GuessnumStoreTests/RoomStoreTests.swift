import Foundation
import GRDB
import GuessnumGame
@testable import GuessnumStore
import Multipeer
import Rooms
import Snap
import Testing
import TicTacToe

/// A room game kept on disk for `--resume`: its snapshot written after a tick and read back into
/// a room that goes on with the same board, turn, seats and wins.
@Suite("A room game's store", .timeLimit(.minutes(1)))
struct RoomStoreTests {
    typealias Table = RoomTable<TicTacToeRules>
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("room-store-\(UUID())", isDirectory: true)

    func table() -> Table {
        Table(rules: TicTacToeRules(), configuration: RoomConfiguration(), host: PlayerRef(id: UUID(), name: "alice"), moveThrottle: .moves)
    }

    @Test("A tic-tac-toe room mid-round is kept and read back: a resumed room has the board and the turn, the seats held, the numbering past a gap")
    func keptAndResumed() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        var room = table()
        let bob = try PeerID(displayName: "bob")
        let carol = try PeerID(displayName: "carol")
        _ = room.join(bob)
        _ = room.join(carol)
        room.startRound()
        let x = try #require(room.rules.view(for: nil).x)
        let mover = x.id == bob.identity ? bob : carol
        guard case .played = room.move(.place(square: 5), from: mover.identity, at: .now) else { throw Failure("the move was not played") }

        let url = directory.appendingPathComponent("alice-tictactoe.sqlite")
        let store = try RoomStore<TicTacToeRules>(at: url)
        #expect(try store.load() == nil, "nothing kept yet")
        store.keep(room.snapshot)
        await store.waitForWrites()
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "readable by its owner only")

        let saved = try #require(try RoomStore<TicTacToeRules>(at: url).load())
        var resumed = table()
        resumed.resume(from: saved, at: .now)
        #expect(resumed.rules.view(for: nil) == room.rules.view(for: nil), "the same board, players and turn")
        #expect(resumed.round == room.round)
        #expect(resumed.lastSequence == room.lastSequence + RoomSnapshot<TicTacToeRules>.resumeGap)
        #expect(resumed.players.map(\.name) == ["bob", "carol"])
        #expect(resumed.seats.away.count == 2, "both seats held until their players come back")
        store.delete()
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test("A Snap room mid-round is kept and read back: the same piles, stacks and turn, and play goes on from there")
    func snapKeptAndResumed() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        var room = RoomTable<SnapRules>(
            rules: SnapRules(), configuration: RoomConfiguration(), host: PlayerRef(id: UUID(), name: "sam"), moveThrottle: .moves)
        let bob = try PeerID(displayName: "bob")
        let carol = try PeerID(displayName: "carol")
        _ = room.join(bob)
        _ = room.join(carol)
        room.startRound()
        guard case .played = room.move(.turn, from: bob.identity, at: .now) else { throw Failure("bob's turn was not played") }

        let url = directory.appendingPathComponent("sam-snap.sqlite")
        let store = try RoomStore<SnapRules>(at: url)
        store.keep(room.snapshot)
        await store.waitForWrites()
        let saved = try #require(try RoomStore<SnapRules>(at: url).load())
        var resumed = RoomTable<SnapRules>(
            rules: SnapRules(), configuration: RoomConfiguration(), host: PlayerRef(id: UUID(), name: "sam"), moveThrottle: .moves)
        resumed.resume(from: saved, at: .now)
        #expect(resumed.rules == room.rules, "the same deal, piles and turn")
        #expect(resumed.rules.view(for: nil).players.map(\.cards) == [26, 26])
        guard case .played = resumed.move(.turn, from: carol.identity, at: .now) else { throw Failure("carol's turn was not played after the resume") }
        #expect(resumed.rules.view(for: nil).players.map(\.faceUp) == [1, 1])
    }

    @Test("A damaged file, or one holding another game, is a sentence that names the file, never a crash")
    func damaged() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let junk = directory.appendingPathComponent("junk-tictactoe.sqlite")
        try Data("not a database".utf8).write(to: junk)
        #expect { try RoomStore<TicTacToeRules>(at: junk) } throws: { error in
            (error as? GameStoreError)?.code == .damaged && (error as? GameStoreError)?.message.contains(junk.path) == true
        }

        let other = directory.appendingPathComponent("other-tictactoe.sqlite")
        let store = try RoomStore<TicTacToeRules>(at: other)
        let pool = try DatabasePool(path: other.path)
        try pool.write { db in try db.execute(sql: "INSERT INTO room (id, game, snapshot) VALUES (1, 'rps', x'7b7d')") }
        #expect { try store.load() } throws: { error in
            (error as? GameStoreError)?.code == .damaged && (error as? GameStoreError)?.message.contains("Delete that file") == true
        }
    }

    /// The rows of `table` in the file at `url`.
    func rows(_ table: String, in url: URL) throws -> Int {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0 }
    }

    /// Whether `kept` is `table`'s game as it stands: the round with every judgement and count,
    /// the scoreboard, the reveal, the seats, the wins and the numbering.
    func same(_ kept: RoomSnapshot<GuessRules>, _ table: RoomTable<GuessRules>, players: [PlayerRef]) throws -> Bool {
        let (a, b) = (try #require(kept.rules.currentRound), try #require(table.rules.currentRound))
        return a.number == b.number && a.commitment == b.commitment && a.history == b.history && a.judgedCount == b.judgedCount
            && a.countedGuesses == b.countedGuesses && a.winner == b.winner && players.allSatisfy { a.guesses(by: $0.id) == b.guesses(by: $0.id) }
            && kept.rules.scoreboard == table.rules.scoreboard && kept.rules.reveal == table.rules.reveal
            && kept.seats == table.snapshotSeats && kept.wins == table.wins && kept.lastSequence == table.lastSequence && kept.round == table.round
    }

    @Test("A guess-the-number room is kept as a snapshot, then each tick's guesses appended; read back after the store is closed it is the room as it stands; a won round writes a fresh snapshot")
    func guessesJournaled() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        var room = RoomTable<GuessRules>(
            rules: GuessRules(settings: GuessSettings(), secretSource: .fixed(42)), configuration: RoomConfiguration(),
            host: PlayerRef(id: UUID(), name: "alice"), moveThrottle: GuessRules.moveThrottle)
        room.keepsEveryItem = true  // as a room with an observer does
        let (bob, carol) = (try PeerID(displayName: "bob"), try PeerID(displayName: "carol"))
        let players = [bob, carol].map { PlayerRef(id: $0.identity, name: $0.displayName) }
        let url = directory.appendingPathComponent("alice-guessnum.sqlite")
        let store = try RoomStore<GuessRules>(at: url)
        func tick() { store.keep(room.takeFlush().everything, of: room) }
        _ = room.join(bob)
        _ = room.join(carol)
        room.startRound()
        tick()
        let start = ContinuousClock.now
        for (index, guess) in [10, 90, 50, 45, 41].enumerated() {
            _ = room.move(Int64(guess), from: (index.isMultiple(of: 2) ? bob : carol).identity, at: start + .seconds(index))
            if index != 3 { tick() }
        }
        _ = room.chat("close!", from: bob.identity, at: start + .seconds(6))
        tick()
        await store.waitForWrites()
        #expect(try rows("entry", in: url) == 5, "four ticks of guesses and one of chat appended, the snapshot of round 1 not written again")
        #expect(try same(try #require(try RoomStore<GuessRules>(at: url).load()), room, players: players))

        _ = room.move(42, from: carol.identity, at: start + .seconds(7))
        tick()
        await store.waitForWrites()
        #expect(try rows("entry", in: url) == 0, "the won round is a fresh snapshot")
        let won = try #require(try RoomStore<GuessRules>(at: url).load())
        #expect(try same(won, room, players: players) && won.rules.reveal?.winner?.id == carol.identity && won.wins == [carol.identity: 1])
        store.delete()
    }

    @Test("After as many entries as the store appends, the next tick compacts them into a fresh snapshot")
    func compacted() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        var room = RoomTable<GuessRules>(
            rules: GuessRules(settings: GuessSettings(), secretSource: .fixed(42)), configuration: RoomConfiguration(),
            host: PlayerRef(id: UUID(), name: "alice"), moveThrottle: GuessRules.moveThrottle)
        room.keepsEveryItem = true  // as a room with an observer does
        let bob = try PeerID(displayName: "bob")
        let url = directory.appendingPathComponent("alice-guessnum.sqlite")
        let store = try RoomStore<GuessRules>(at: url)
        _ = room.join(bob)
        room.startRound()
        store.keep(room.takeFlush().everything, of: room)
        let start = ContinuousClock.now
        for index in 0...RoomStore<GuessRules>.compactionLimit {
            _ = room.move(Int64(index % 40 + 1), from: bob.identity, at: start + .seconds(index))
            store.keep(room.takeFlush().everything, of: room)
        }
        await store.waitForWrites()
        #expect(try rows("entry", in: url) == 0, "the limit's tick was a snapshot")
        let kept = try #require(try RoomStore<GuessRules>(at: url).load())
        #expect(try same(kept, room, players: [PlayerRef(id: bob.identity, name: "bob")]))
        #expect(kept.rules.currentRound?.judgedCount == RoomStore<GuessRules>.compactionLimit + 1)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
