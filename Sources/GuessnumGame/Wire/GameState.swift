/// The state of the game in a ``WelcomeMessage``, bounded so that it fits one frame however
/// many people play: the last guesses of this round, some players and the top of the
/// scoreboard.
public struct GameState: Sendable, Hashable, Codable {
    /// The current round's number.
    public var round: Int
    /// The current round's range.
    public var range: GuessRange
    /// The current round's commitment.
    public var commitment: Commitment
    /// The most recent judgements of this round, oldest first.
    public var history: [Judgement]
    /// How many earlier judgements of this round are not in ``history``.
    public var earlierJudgements: Int
    /// The sequence number of the last broadcast item this state includes; later
    /// ``HistoryBatch`` items with a number up to this one are already accounted for.
    public var lastSequence: UInt64
    /// Some of the players (all of them in a small game).
    public var players: [PlayerRef]
    /// How many players there are.
    public var playerCount: Int
    /// The best entries of the scoreboard.
    public var scoreboard: [Scoreboard.Entry]
    /// The reveal of the current round when it is already won and the next has not started.
    public var reveal: RoundWon?
    /// `true` when the host chooses the secrets itself rather than drawing them; absent otherwise.
    public var hostChoseSecret: Bool?
    /// How long, in seconds, the host keeps the seat of a player whose link dropped (see
    /// ``Rooms/RoomConfiguration/awayGracePeriod``); absent when it keeps none (or is older than
    /// held seats). A guest tries to get back in for this long.
    public var seatHoldSeconds: Int?

    /// Creates a state; see the properties.
    public init(
        round: Int, range: GuessRange, commitment: Commitment, history: [Judgement], earlierJudgements: Int,
        lastSequence: UInt64, players: [PlayerRef], playerCount: Int, scoreboard: [Scoreboard.Entry], reveal: RoundWon?,
        hostChoseSecret: Bool = false, seatHoldSeconds: Int? = nil
    ) {
        self.hostChoseSecret = hostChoseSecret ? true : nil
        self.seatHoldSeconds = seatHoldSeconds
        self.round = round
        self.range = range
        self.commitment = commitment
        self.history = history
        self.earlierJudgements = earlierJudgements
        self.lastSequence = lastSequence
        self.players = players
        self.playerCount = playerCount
        self.scoreboard = scoreboard
        self.reveal = reveal
    }
}
