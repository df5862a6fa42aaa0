import ArgumentParser
@testable import GuessnumApp
import Testing

/// `guessnum host`'s options for every game, read and checked as the command reads them.
@Suite("The host's options for every game", .timeLimit(.minutes(1)))
struct HostArgumentsTests {
    /// The sentence ArgumentParser shows for `arguments`, nil when they are accepted.
    func refusal(_ arguments: [String]) -> String? {
        do {
            _ = try HostArguments.parse(arguments)
            return nil
        } catch {
            return HostArguments.message(for: error)
        }
    }

    @Test("Defaults and given values become the room's limits, questions and port")
    func options() throws {
        let standard = try HostArguments.parse([]).hostOptions(style: .plain, json: false)
        #expect(standard.room.maximumPlayers == 100 && standard.port == nil && !standard.isPrivate && !standard.asks && !standard.resumes)
        let given = try HostArguments.parse(["--max-players", "4", "--grace", "0", "--turn-time", "20", "--port", "0", "--ask", "--password", "--resume"])
            .hostOptions(style: .plain, json: true)
        #expect(given.room.maximumPlayers == 4 && given.room.awayGracePeriod == .zero && given.room.turnTime == .seconds(20))
        #expect(given.port == 0 && given.isPrivate && given.asks && given.resumes && given.json)
        #expect(try HostArguments.parse(["--turn-time", "0"]).hostOptions(style: .plain, json: false).room.turnTime == nil, "0: no limit")
    }

    @Test("A limit out of its range is refused with its sentence")
    func ranges() {
        #expect(refusal(["--max-players", "0"]) == "--max-players must be at least 1.")
        #expect(refusal(["--max-players-per-address", "0"]) == "--max-players-per-address must be at least 1.")
        #expect(refusal(["--port", "65536"]) == "--port must be from 0 to 65535.")
        #expect(refusal(["--grace", "3601"]) == "--grace must be from 0 to 3600 seconds.")
        #expect(refusal(["--turn-time", "-1"]) == "--turn-time must be from 0 to 3600 seconds.")
        #expect(refusal(["--grace", "3600", "--turn-time", "3600"]) == nil)
    }

    @Test("--turn-time is refused for a game without turns, with the games that take them")
    func turnTime() throws {
        let guess = try #require(GameCatalog.game(id: "guessnum"))
        let rps = try #require(GameCatalog.game(id: "rps"))
        let timed = try HostArguments.parse(["--turn-time", "20"])
        #expect(throws: AppFailure.self) { try timed.prepare(guess, options: [], besides: HostArguments.self) }
        do {
            _ = try timed.prepare(guess, options: [], besides: HostArguments.self)
        } catch {
            #expect(error.message == "--turn-time is for tic-tac-toe, rock-paper-scissors or Snap (--game tictactoe, rps or snap), not guess-the-number.")
            #expect(error.code == .usage)
        }
        #expect(try timed.prepare(rps, options: ["--best-of", "5"], besides: HostArguments.self).kind.id == "rps")
        #expect(try HostArguments.parse([]).prepare(guess, options: ["--range", "1-10"], besides: HostArguments.self).kind.id == "guessnum")
    }
}
