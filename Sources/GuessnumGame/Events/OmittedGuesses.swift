/// How many guess lines a busy host left out of one broadcast.
public struct OmittedGuesses: Sendable, Hashable {
    /// The number left out.
    public let count: Int

    /// A report of `count` lines left out.
    public init(count: Int) {
        self.count = count
    }
}
