import ArgumentParser
import GuessnumApp
import GuessnumGame
import GuessnumStore
import GuessnumTerminal
import Multipeer

/// The one place that turns errors into what the user reads and the exit code scripts see.
///
/// Exit codes: 0 success; 1 a runtime failure (unreachable host, broken connection);
/// 3 turned away, no answer, or no such game; 64 a mistake on the command line (EX_USAGE, as
/// swift-argument-parser uses for its own usage errors).
enum CommandRunner {
    static func run(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as MultipeerError {
            StandardStreams.writeErrorLine(error.message)
            throw ExitCode(exitCode(for: error.code))
        } catch let error as GameError {
            StandardStreams.writeErrorLine(error.message)
            throw ExitCode(usageExitCode)
        } catch let error as GameStoreError {
            StandardStreams.writeErrorLine(error.message)
            throw ExitCode(1)
        } catch let error as AppFailure {
            StandardStreams.writeErrorLine(error.message)
            throw ExitCode(error.exitCode)
        }
    }

    /// A mistake on the command line.
    static let usageExitCode: Int32 = 64

    static func exitCode(for code: MultipeerError.Code) -> Int32 {
        switch code {
        case .invalidDisplayName, .invalidEndpoint, .invalidServiceType, .invalidDiscoveryInfo: usageExitCode
        default: 1
        }
    }
}
