/// A failure of the program itself, with the sentence the user reads and the exit code
/// scripts see.
///
/// Exit codes: 1 a runtime failure (unreachable host, broken connection); 3 turned away, no
/// answer, or no such game; 64 a mistake on the command line.
public struct AppFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, in one sentence.
    public let message: String
    /// The exit code.
    public let exitCode: Int32

    /// A failure with `message` and `exitCode` (1 unless said).
    public init(_ message: String, exitCode: Int32 = 1) {
        self.message = message
        self.exitCode = exitCode
    }

    public var description: String { message }
}
