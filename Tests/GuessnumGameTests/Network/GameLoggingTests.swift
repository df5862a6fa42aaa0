import Foundation
import GuessnumGame
import Multipeer
import MultipeerTestSupport
import Testing

/// What the game logs, through the loggers the tests pass in.
@Suite("Game logging", .timeLimit(.minutes(2)))
struct GameLoggingTests {
    static func configuration() -> GuessHosting {
        var configuration = GuessHosting(range: .standard, secretSource: .fixed(42))
        configuration.room.pauseBetweenRounds = .seconds(60)
        return configuration
    }

    @Test("A message of an unknown type sent to the game master is logged at notice under the sender's name", arguments: Network.allCases)
    func unknownMessageLogged(network: Network) async throws {
        try await withGame(network, configuration: Self.configuration()) { game in
            let bob = try await game.join("bob")
            try bob.session.send(Data("{}".utf8), messageType: "guessnum.v1.teleport", to: [game.host.localPeer])
            let line = try #require(await game.hostLog.first { $0["type"] == "guessnum.v1.teleport" })
            #expect(line.level == .notice)
            #expect(line["peer"] == "bob")
            #expect(line.label == "guessnum.game")
        }
    }

    @Test("A normal short game logs nothing at warning or above", arguments: Network.allCases)
    func normalGameIsQuiet(network: Network) async throws {
        let (game, bob, carol) = try await withGame(network, configuration: Self.configuration()) { game in
            let bob = try await game.join("bob")
            let carol = try await game.join("carol")
            try bob.game.submit(line: "hello all")
            try carol.game.rename(to: "caroline")
            try game.room.say("good luck")
            try bob.game.submit(line: "50")
            try carol.game.submit(line: "42")
            #expect(await bob.roundsWon.first { $0.round == 1 } != nil)
            #expect(await bob.fairness.first { $0.round == 1 }?.isHonest == true)
            game.room.newRound()
            #expect(await carol.roundsStarted.first { $0.round == 2 } != nil)
            try bob.game.submit(line: "42")
            #expect(await carol.roundsWon.first { $0.round == 2 } != nil)
            return (game, bob, carol)
        }

        // The loggers were in use: routine steps are logged at debug.
        #expect(game.hostLog.all.contains { $0.level == .debug && $0["peer"] == "bob" })
        #expect(game.sessionLog.all.contains { $0.level == .debug })
        let loud = [game.hostLog, game.sessionLog, bob.log, carol.log].flatMap { $0.lines(atLeast: .warning) }
        #expect(loud.isEmpty, "logged at warning or above: \(loud)")
    }
}
