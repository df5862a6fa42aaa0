import Foundation
import GuessnumResources
import Multipeer
import MultipeerTestSupport
import Testing

/// The `guessnum` program as a user meets it: real processes, real exit codes, one sentence
/// per error and no stack dumps.
@Suite("The guessnum command line")
struct CommandLineTests {
    func run(_ arguments: [String]) async throws -> (status: Int32?, output: String) {
        let process = try ChildProcess(try guessnumExecutable(), arguments, environment: scratchConfigEnvironment())
        process.closeInput()
        let status = await process.exitStatus(within: .seconds(15))
        return (status, process.text)
    }

    @Test("Bad input on the command line gets its sentence and exit code 2", arguments: [
        (["join", "nonsense"], "is not an address"),
        (["join", "127.0.0.1:99999"], "is not an address"),
        (["join", "--name", "", "127.0.0.1:7777"], "display name"),
        (["host", "--name", String(repeating: "x", count: 64)], "64 bytes long"),
    ])
    func badInput(arguments: [String], sentence: String) async throws {
        let (status, output) = try await run(arguments)
        #expect(status == 2)
        #expect(output.contains(sentence), "output: \(output)")
        #expect(!output.contains("MultipeerError("), "errors reach the user as sentences, not dumps")
    }

    @Test("An unreachable host is a runtime failure with exit code 1")
    func unreachable() async throws {
        let (status, output) = try await run(["join", "127.0.0.1:1"])
        #expect(status == 1)
        #expect(output.contains("Could not connect to 127.0.0.1:1: connection refused."), "output: \(output)")
    }

    @Test("--version and --help answer and exit 0")
    func versionAndHelp() async throws {
        let version = try await run(["--version"])
        #expect(version.status == 0)
        #expect(version.output.contains("0.1.0"))
        let help = try await run(["--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("host") && help.output.contains("join"))
    }

    @Test("Every bundled player name is a valid display name")
    func playerNames() throws {
        let names = GuessnumResources.playerNames
        #expect(names.count >= 20)
        for name in names { #expect((try? PeerID.validate(displayName: name)) != nil, "\(name)") }
        #expect(Set(names).count == names.count, "no duplicates")
    }
}
