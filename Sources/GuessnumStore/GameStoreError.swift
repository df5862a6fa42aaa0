import Multipeer

/// Why a host's game store cannot be used, with the sentence the user reads.
///
/// Like the other error types it carries a ``code`` to switch on, and keeps the error it was
/// made from (SQLite's, the file system's) as its ``underlying`` cause, for logs.
public struct GameStoreError: Error, Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, ErrorWithCause {
    /// What kind of failure this is.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The file or its directory cannot be made or written.
        case unwritable
        /// The file is not a game of this program's: damaged, tampered with, or something else.
        case damaged
    }

    /// What kind of failure this is.
    public let code: Code
    /// The sentence: what is wrong, with which file, and what to do.
    public let message: String
    /// The error this one was made from, if any: for logs and debugging, not for the user.
    public let underlying: (any Error)?

    init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    public var description: String { message }

    /// The sentence, the code and the cause, if any: what a log shows.
    public var debugDescription: String {
        ErrorCause.debugDescription(message: message, code: code.rawValue, underlying: underlying)
    }

    /// Equal when the code and the sentence are; the cause does not count.
    public static func == (lhs: GameStoreError, rhs: GameStoreError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
    }
}
