import Rooms
import Multipeer
import Testing

@Suite("What a game announces on the LAN", .timeLimit(.minutes(2)))
struct GameAdvertisementTests {
    @Test("Encodes to the documented TXT entries and decodes back", arguments: [
        (Int64(1)...100, 3, 100, 2, ["r": "1..100", "p": "3/100", "n": "2"]),
        (Int64(-50)...50, 0, 1, 1, ["r": "-50..50", "p": "0/1", "n": "1"]),
    ])
    func roundTrip(range: ClosedRange<Int64>, players: Int, seats: Int, round: Int, entries: [String: String]) throws {
        let advertisement = GameAdvertisement(range: range, playerCount: players, maximumPlayers: seats, round: round)
        #expect(advertisement.discoveryInfo.entries == entries)
        #expect(GameAdvertisement(decoding: advertisement.discoveryInfo) == advertisement)
        #expect(advertisement.discoveryInfo.encodedSize <= 200)
    }

    @Test("A missing or malformed entry is nil; the others and unknown keys do not matter", arguments: [
        (["r": "1..100"], GameAdvertisement(range: 1...100, playerCount: nil, maximumPlayers: nil, round: nil)),
        (["r": "100..1", "p": "3/100", "n": "2"], GameAdvertisement(range: nil, playerCount: 3, maximumPlayers: 100, round: 2)),
        (["r": "banana", "p": "3", "n": "-1"], GameAdvertisement(range: nil, playerCount: nil, maximumPlayers: nil, round: nil)),
        (["p": "-1/5", "n": "x", "future": "1"], GameAdvertisement(range: nil, playerCount: nil, maximumPlayers: nil, round: nil)),
        (["p": "4/0"], GameAdvertisement(range: nil, playerCount: nil, maximumPlayers: nil, round: nil)),
        ([:], GameAdvertisement(range: nil, playerCount: nil, maximumPlayers: nil, round: nil)),
    ])
    func lenientDecoding(entries: [String: String], expected: GameAdvertisement) throws {
        #expect(GameAdvertisement(decoding: try DiscoveryInfo(entries)) == expected)
    }

    @Test("A room of another game says which (g); guess-the-number says nothing, and a malformed ID is ignored")
    func game() throws {
        let room = GameAdvertisement(range: nil, playerCount: 1, maximumPlayers: 10, round: 2, game: "tictactoe")
        #expect(room.discoveryInfo.entries == ["p": "1/10", "n": "2", "g": "tictactoe"])
        #expect(GameAdvertisement(decoding: room.discoveryInfo) == room)
        #expect(room.gameID == "tictactoe")
        #expect(GameAdvertisement(range: 1...100, playerCount: nil, maximumPlayers: nil, round: nil).gameID == "guessnum")
        for malformed in ["Tic-Tac-Toe", "", "a-very-long-game-name-indeed"] {
            #expect(GameAdvertisement(decoding: try DiscoveryInfo(["g": malformed])).game == nil, "\(malformed)")
        }
    }

    @Test("Every game is announced as _guessnum._tcp")
    func serviceType() {
        #expect(GameAdvertisement.serviceType == (try? ServiceType("guessnum")))
    }
}
