import Multipeer

/// A failure of the program itself, with the sentence the user reads and the kind of failure
/// it is, from which the exit code scripts see follows (see ``Code/exitCode``).
///
/// Exit codes: 1 a runtime failure (unreachable host, broken connection, a file that cannot be
/// kept); 3 turned away, no answer, or no such game; 64 a mistake on the command line; 130
/// cancelled with Ctrl-C.
public struct AppFailure: Error, Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, ErrorWithCause {
    /// What kind of failure this is. Each kind has one exit code.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// A mistake on the command line (or in the environment it reads): exit 64, EX_USAGE.
        case usage
        /// The other side turned this one away: the host refused, the game is full or
        /// private, the password is wrong, the key does not prove who was picked, the receiver
        /// declined: exit 3.
        case turnedAway
        /// The other side was reached but did not answer in time: exit 3.
        case noAnswer
        /// No such game, receiver or player was found: exit 3.
        case notFound
        /// Something failed while the program ran (a connection, the network): exit 1.
        case runtime
        /// A file of the program's own (the remembered games and hosts, a saved game) cannot
        /// be read or written: exit 1.
        case storage
        /// The user stopped it (Ctrl-C): exit 130.
        case cancelled

        /// The exit code of this kind: the one place the numbers are stated.
        public var exitCode: Int32 {
            switch self {
            case .usage: 64
            case .turnedAway, .noAnswer, .notFound: 3
            case .runtime, .storage: 1
            case .cancelled: 130
            }
        }
    }

    /// What kind of failure this is.
    public let code: Code
    /// What went wrong, in one sentence.
    public let message: String
    /// The error this one was made from, if any: for logs and debugging, not for the user.
    public let underlying: (any Error)?

    /// The exit code, which follows from ``code``.
    public var exitCode: Int32 { code.exitCode }

    /// A failure of kind `code` (a runtime failure unless said) with `message`, made from
    /// `underlying` when given.
    public init(_ message: String, _ code: Code = .runtime, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// A failure with `message` and an exit code (64 a usage mistake, 3 turned away, 130
    /// cancelled, any other a runtime failure). Prefer ``init(_:_:underlying:)``, which says
    /// the kind.
    public init(_ message: String, exitCode: Int32) {
        let code: Code = switch exitCode {
        case Code.usage.exitCode: .usage
        case Code.turnedAway.exitCode: .turnedAway
        case Code.cancelled.exitCode: .cancelled
        default: .runtime
        }
        self.init(message, code)
    }

    public var description: String { message }

    /// The sentence, the kind and the cause, if any: what a log shows.
    public var debugDescription: String {
        ErrorCause.debugDescription(message: message, code: code.rawValue, underlying: underlying)
    }

    /// Equal when the user and scripts see the same: the sentence and the exit code. (Turned
    /// away, no answer and not found share exit code 3; the cause does not count.)
    public static func == (lhs: AppFailure, rhs: AppFailure) -> Bool {
        lhs.message == rhs.message && lhs.exitCode == rhs.exitCode
    }
}
