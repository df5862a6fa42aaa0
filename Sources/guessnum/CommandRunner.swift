import ArgumentParser
import Multipeer

/// A failure of the program itself, with its sentence and exit code.
struct CLIError: Error {
    let message: String
    let exitCode: Int32

    init(_ message: String, exitCode: Int32 = 1) {
        self.message = message
        self.exitCode = exitCode
    }
}

/// The one place that turns errors into what the user reads and the exit code scripts see.
///
/// Exit codes: 0 success; 1 a runtime failure (unreachable host, broken connection);
/// 2 bad input on the command line; 3 turned away or no answer from the host.
enum CommandRunner {
    static func run(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as MultipeerError {
            Output.error(error.message)
            throw ExitCode(exitCode(for: error.code))
        } catch let error as CLIError {
            Output.error(error.message)
            throw ExitCode(error.exitCode)
        }
    }

    static func exitCode(for code: MultipeerError.Code) -> Int32 {
        switch code {
        case .invalidDisplayName, .invalidEndpoint, .invalidServiceType, .invalidDiscoveryInfo: 2
        default: 1
        }
    }
}
