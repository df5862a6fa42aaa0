/// What everyone sees of a game of guess-the-number at one moment (players see the same): the
/// round, its commitment, its latest judgements, its reveal once won, and the top of the
/// scoreboard — what a welcome carries beside the room's players.
public struct GuessView: Sendable, Hashable, Codable {
    /// The current round's number.
    public var round: Int
    /// Its range.
    public var range: GuessRange
    /// Its commitment.
    public var commitment: Commitment
    /// Its latest judgements, oldest first.
    public var history: [Judgement]
    /// How many earlier judgements of this round are not in ``history``.
    public var earlierJudgements: Int
    /// The round's reveal, when it is won and the next has not started.
    public var reveal: RoundWon?
    /// Whether the host chose the secret rather than drawing it.
    public var hostChoseSecret: Bool
    /// The best entries of the scoreboard.
    public var scoreboard: [Scoreboard.Entry]

    /// A view; see the properties.
    public init(
        round: Int, range: GuessRange, commitment: Commitment, history: [Judgement], earlierJudgements: Int, reveal: RoundWon?,
        hostChoseSecret: Bool, scoreboard: [Scoreboard.Entry]
    ) {
        self.round = round
        self.range = range
        self.commitment = commitment
        self.history = history
        self.earlierJudgements = earlierJudgements
        self.reveal = reveal
        self.hostChoseSecret = hostChoseSecret
        self.scoreboard = scoreboard
    }
}
