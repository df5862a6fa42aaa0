import Multipeer

/// Why a host's game store cannot be used, with the sentence the user reads.
///
/// Like the other error types it carries a ``code`` to switch on, and keeps the error it was
/// made from (SQLite's, the file system's) as its ``underlying`` cause, for logs.
public struct GameStoreError: CodedError, Sendable {
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
}
