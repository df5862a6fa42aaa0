/// Why a host's game store cannot be used, with the sentence the user reads.
public struct GameStoreError: Error, Sendable, CustomStringConvertible {
    /// The sentence: what is wrong, with which file, and what to do.
    public let message: String

    init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
