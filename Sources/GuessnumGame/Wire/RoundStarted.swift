/// `guessnum.v1.round-started` — a new round with a new secret, committed to (in a
/// ``HistoryBatch``).
public struct RoundStarted: GameMessage, Hashable {
    public static let messageType = "guessnum.v1.round-started"
    /// The broadcast sequence number.
    public var sequence: UInt64
    /// The new round's number.
    public var round: Int
    /// Its range.
    public var range: GuessRange
    /// SHA-256 of its salt and secret; see ``Commitment``.
    public var commitment: Commitment
    /// `true` when the host chose the secret itself rather than drawing it; absent otherwise.
    public var hostChoseSecret: Bool?

    /// Creates the message.
    public init(sequence: UInt64, round: Int, range: GuessRange, commitment: Commitment, hostChoseSecret: Bool = false) {
        self.sequence = sequence
        self.round = round
        self.range = range
        self.commitment = commitment
        self.hostChoseSecret = hostChoseSecret ? true : nil
    }
}
