import Foundation
@testable import GuessnumApp
import GuessnumGame
@testable import GuessnumStore
import Multipeer
import MultipeerTestSupport
import Testing

/// The exit code follows the kind of failure: one rule for the library's, the game's and the
/// app's errors.
@Suite("Failure kinds and exit codes", .timeLimit(.minutes(1)))
struct FailureKindsTests {
    @Test("Each kind has its documented exit code: 64 usage, 3 turned away, no answer or not found, 1 runtime or storage, 130 cancelled")
    func exitCodes() {
        let expected: [AppFailure.Code: Int32] = [
            .usage: 64, .turnedAway: 3, .noAnswer: 3, .notFound: 3, .runtime: 1, .storage: 1, .cancelled: 130,
        ]
        #expect(Set(expected.keys) == Set(AppFailure.Code.allCases))
        for code in AppFailure.Code.allCases { #expect(code.exitCode == expected[code], "\(code)") }
    }

    @Test("A game that refuses the player ends the program with 3, not 64", arguments: [
        GameError.gameFull(4), .tooManyFromAddress(2), .passwordNeeded, .wrongPassword, .tooManyWrongPasswords(5, period: .seconds(60)),
        .tooManyWrongPasswordsOverall(50, period: .seconds(60)), .passwordNotConfirmed(host: "alice"), .passwordNotAsked(host: "alice"),
        .messageFlood(perSecond: 50),
    ])
    func refusedGameIsThree(error: GameError) {
        #expect(AppFailure(error).exitCode == 3, "\(error.code)")
        #expect(AppFailure(error).code == .turnedAway)
        #expect(AppFailure(error).message == error.message)
    }

    @Test("A mistake on the command line ends the program with 64", arguments: [
        GameError.emptyRange, .reversedRange(100, 1), .unreadableRange("banana"), .secretOutOfRange(200, try! GuessRange(1, 100)),
        .invalidConfiguration("a zero tick"), .nameLooksLikeChat("[host] alice"), .emptyPassword, .passwordTooLong(limit: 128),
    ])
    func usageIsSixtyFour(error: GameError) {
        #expect(AppFailure(error).exitCode == 64, "\(error.code)")
    }

    @Test("The library's errors: a bad argument 64; a host that refuses, another peer or an unproved key 3; no answer 3; a broken connection 1")
    func multipeerCodes() throws {
        #expect(AppFailure(MultipeerError.invalidEndpoint("nonsense")).exitCode == 64)
        #expect(AppFailure(MultipeerError.invalidResourceName("../passwd", "is a path")).exitCode == 64)
        #expect(AppFailure(MultipeerError(.hostRefused, "refused")).exitCode == 3)
        #expect(AppFailure(MultipeerError.notThePeerPicked("alice")).exitCode == 3)
        #expect(AppFailure(MultipeerError.identityNotProved("alice")).exitCode == 3)
        #expect(AppFailure(MultipeerError.resourceDeclined("a.txt", by: "rita", reason: nil)).exitCode == 3)
        let endpoint = try Endpoint(host: "10.0.0.1", port: 7777)
        #expect(AppFailure(MultipeerError.hostNotAnswering([endpoint], within: .seconds(5))).code == .noAnswer)
        #expect(AppFailure(MultipeerError.connectionFailed(endpoint, "connection refused")).exitCode == 1)
        #expect(AppFailure(MultipeerError.connectionClosed("unexpectedly")).exitCode == 1)
        #expect(AppFailure(MultipeerError.cancelled).exitCode == 1, "only the app knows a Ctrl-C")
        #expect(AppFailure(MultipeerError(.identityStorage, "x")).code == .storage)
        for code in MultipeerError.Code.allCases { _ = AppFailure.Code(code) }  // every code has a kind
        for code in GameError.Code.allCases { _ = AppFailure.Code(code) }
    }

    @Test("An error the program ends with keeps its sentence and is kept as the cause; unknown errors are left to the parser")
    func ending() throws {
        let refused = GameError.gameFull(2)
        let failure = try #require(AppFailure(ending: refused))
        #expect(failure.message == refused.message)
        #expect(failure.underlying as? GameError == refused)
        #expect(failure.debugDescription.contains("[turnedAway] (caused by: \(refused.message) [gameFull])"), "\(failure.debugDescription)")
        let own = AppFailure("No answer; the game was not started.")
        #expect(AppFailure(ending: own) == own && AppFailure(ending: own)?.code == .runtime)
        struct Other: Error {}
        #expect(AppFailure(ending: Other()) == nil)
        #expect(AppFailure(ending: CancellationError()) == nil)
        let unwritable = GameStoreError(.unwritable, "Could not write the game to /x/alice.sqlite: disk full.")
        let stored = try #require(AppFailure(ending: unwritable))
        #expect(stored.code == .storage && stored.exitCode == 1 && stored.message == unwritable.message, "a store's error is a storage failure")
    }

    @Test("The exit code given the old way is read as its kind; failures are equal when the sentence and exit code are")
    func legacyExitCodes() {
        #expect(AppFailure("x", exitCode: 64).code == .usage)
        #expect(AppFailure("x", exitCode: 3).code == .turnedAway)
        #expect(AppFailure("x", exitCode: 130).code == .cancelled)
        #expect(AppFailure("x", exitCode: 1).code == .runtime)
        #expect(AppFailure("x", exitCode: 3) == AppFailure("x", .notFound))
        #expect(AppFailure("x", .usage) != AppFailure("x", .runtime))
        #expect(AppFailure("x", .usage) != AppFailure("y", .usage))
    }

    @Test("The app's own files fail as storage (exit 1) with the sentence naming the file, the library's error kept as the cause")
    func ownFilesAreStorage() throws {
        // A path under a regular file: its directory cannot be made.
        let blocker = Scratch.path("guessnum-blocker")
        try Data("x".utf8).write(to: blocker)
        defer { try? FileManager.default.removeItem(at: blocker) }
        let hosts = KnownHosts(fileURL: blocker.appendingPathComponent("dir/known_hosts"))
        let hostsError = #expect(throws: AppFailure.self) { try hosts.remember("alice", key: PeerKey.generate().fingerprint) }
        #expect(hostsError?.code == .storage && hostsError?.exitCode == 1)
        #expect(hostsError?.message.contains(blocker.path) == true, "\(hostsError?.message ?? "")")
        #expect(hostsError?.underlying is MultipeerError)

        let games = RememberedGames(fileURL: blocker.appendingPathComponent("dir/games.json"))
        let gamesError = #expect(throws: AppFailure.self) {
            try games.remember("hal", identity: UUID(), endpoints: [try Endpoint(host: "10.0.0.1", port: 4000)], isPrivate: false)
        }
        #expect(gamesError?.code == .storage)
        #expect(gamesError?.message.contains("remembered games") == true, "\(gamesError?.message ?? "")")
    }
}
