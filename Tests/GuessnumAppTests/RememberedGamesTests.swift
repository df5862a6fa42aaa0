import Foundation
import GuessnumApp
import GuessnumGame
import Multipeer
import MultipeerTestSupport
import Testing

/// The games joined before and the port a host listened on: files that bring a player back to a
/// game discovery cannot list, and a restarted host back to where players look for it.
@Suite("Remembered games and ports", .timeLimit(.minutes(1)))
struct RememberedGamesTests {
    func directory() -> URL {
        Scratch.path("guessnum-remembered")
    }

    @Test("The most recent first, one entry per host (its identity), at most ten; an entry lists as the game it was")
    func file() throws {
        let folder = directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let games = RememberedGames(fileURL: folder.appendingPathComponent("remembered_games.json"))
        #expect(games.read().games.isEmpty && games.read().problem == nil)
        let hal = UUID()
        let at = try Endpoint(host: "192.168.1.20", port: 4000)
        try games.remember("hal", identity: hal, endpoints: [at], isPrivate: true)
        for index in 0..<12 {
            try games.remember("g\(index)", identity: UUID(), endpoints: [try Endpoint(host: "10.0.0.\(index + 1)", port: 4000)], isPrivate: false)
        }
        #expect(games.read().games.map(\.name) == (2..<12).reversed().map { "g\($0)" }, "ten, the newest first; hal fell off")
        try games.remember("hal", identity: hal, endpoints: [at, try Endpoint(host: "fd00::20", port: 4000)], isPrivate: true)
        try games.remember("hal renamed", identity: hal, endpoints: [at], isPrivate: true)
        let read = games.read().games
        #expect(read.count == 10 && read.filter { $0.identity == hal }.count == 1 && read.first?.name == "hal renamed")
        let listing = try #require(read.first?.listing)
        #expect(listing.peer.identity == hal && listing.peer.displayName == "hal renamed" && listing.endpoints == [at])
        #expect(GameAdvertisement(decoding: listing.info).isPrivate, "so the player is asked for the password before joining")
    }

    @Test("A damaged file is a sentence and is moved aside, and games are remembered anew")
    func damaged() throws {
        let folder = directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let games = RememberedGames(fileURL: folder.appendingPathComponent("remembered_games.json"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("[{\"name\": 3".utf8).write(to: games.fileURL)
        let (read, problem) = games.read()
        #expect(read.isEmpty)
        #expect(problem?.contains("could not be read") == true && problem?.contains("remembered_games.json.damaged") == true, "\(problem ?? "")")
        #expect(FileManager.default.fileExists(atPath: games.fileURL.path + ".damaged"))
        try games.remember("hal", identity: UUID(), endpoints: [try Endpoint(host: "10.0.0.1", port: 1)], isPrivate: false)
        #expect(games.read().games.count == 1 && games.read().problem == nil)
    }

    @Test("The host's port is remembered; nothing, garbage or an impossible port remembers none")
    func port() throws {
        let folder = directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ports = ListeningPortMemory(fileURL: folder.appendingPathComponent("host_port"))
        #expect(ports.last == nil)
        ports.remember(40_123)
        #expect(ports.last == 40_123)
        for text in ["garbage", "0", "70000", ""] {
            try Data(text.utf8).write(to: ports.fileURL)
            #expect(ports.last == nil, "\(text)")
        }
    }
}
