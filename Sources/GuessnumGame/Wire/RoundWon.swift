/// `guessnum.v1.round-won` — the round is over and its secret revealed (in a ``HistoryBatch``).
///
/// Guests check the reveal against the commitment published when the round started. The
/// winner is nil when the host started a new round before anyone won; the reveal is sent all
/// the same, so that every round can be checked.
public struct RoundWon: GameMessage, Hashable {
    public static let messageType = "guessnum.v1.round-won"
    /// The broadcast sequence number.
    public var sequence: UInt64
    /// The round that ended.
    public var round: Int
    /// Its range.
    public var range: GuessRange
    /// The commitment published when it started.
    public var commitment: Commitment
    /// Who found the secret, or nil when the host ended the round.
    public var winner: PlayerRef?
    /// The secret.
    public var secret: Int64
    /// The salt that hid it.
    public var salt: Salt
    /// How many counted guesses the winner needed.
    public var winningGuesses: Int?
    /// How many counted guesses everyone made this round.
    public var totalGuesses: Int
    /// `true` when the host chose the secret itself rather than drawing it; absent otherwise.
    public var hostChoseSecret: Bool?

    /// Creates the reveal.
    public init(
        sequence: UInt64, round: Int, range: GuessRange, commitment: Commitment, winner: PlayerRef?,
        secret: Int64, salt: Salt, winningGuesses: Int?, totalGuesses: Int, hostChoseSecret: Bool = false
    ) {
        self.hostChoseSecret = hostChoseSecret ? true : nil
        self.sequence = sequence
        self.round = round
        self.range = range
        self.commitment = commitment
        self.winner = winner
        self.secret = secret
        self.salt = salt
        self.winningGuesses = winningGuesses
        self.totalGuesses = totalGuesses
    }

    /// "bob found 42 in 7 guesses" or "round 3 ended; the secret was 42", safe to print.
    public var displayText: String {
        guard let winner else { return "round \(round) ended without a winner; the secret was \(secret)" }
        let guesses = winningGuesses.map { " in \($0) guess\($0 == 1 ? "" : "es")" } ?? ""
        return "\(winner.displayText) found \(secret)\(guesses) and wins round \(round)"
    }
}
