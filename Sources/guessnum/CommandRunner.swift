import ArgumentParser
import GuessnumApp
import GuessnumTerminal
import Logging
import Multipeer

/// The one place that turns errors into what the user reads and the exit code scripts see.
///
/// Every error is made an ``AppFailure``, whose kind gives the exit code (see
/// ``AppFailure/Code/exitCode``): 0 success; 1 a runtime failure (unreachable host, broken
/// connection, a file that cannot be kept); 3 turned away, no answer, or no such game; 64 a
/// mistake on the command line (EX_USAGE, as swift-argument-parser uses for its own usage
/// errors). The error's cause, if it keeps one, goes to the log at debug level.
enum CommandRunner {
    static func run(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch {
            // Nil for errors the argument parser handles: its own, and an `ExitCode` a command chose.
            guard let failure = AppFailure(ending: error) else { throw error }
            Logger(label: "guessnum").debug("The program ends with an error.", metadata: ["error": .string(String(reflecting: failure))])
            StandardStreams.writeErrorLine(failure.message)
            throw ExitCode(failure.exitCode)
        }
    }
}
