import Foundation
import GRDB
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

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
