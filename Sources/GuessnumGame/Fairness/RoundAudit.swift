/// What a guest needs to check a round once it is revealed: the commitment published at its
/// start and the verdicts seen during it, folded as they arrive so that memory stays constant.
///
/// ``check(_:)`` holds the host to its word: the reveal must match the commitment, the secret
/// must lie in the range, and every verdict seen must agree with the secret.
public struct RoundAudit: Sendable, Hashable {
    /// The round audited.
    public let round: Int
    /// Its range.
    public let range: GuessRange
    /// The commitment published when it started.
    public let commitment: Commitment

    private var highestTooLow: Judgement?
    private var lowestTooHigh: Judgement?
    private var correct: [Judgement] = []
    private var misjudgedOutOfRange: Judgement?

    /// An audit of `round`, committed to with `commitment`.
    public init(round: Int, range: GuessRange, commitment: Commitment) {
        self.round = round
        self.range = range
        self.commitment = commitment
    }

    /// Takes note of a verdict of this round.
    public mutating func observe(_ judgement: Judgement) {
        switch judgement.verdict {
        case .tooLow:
            if judgement.guess > highestTooLow?.guess ?? .min { highestTooLow = judgement }
        case .tooHigh:
            if judgement.guess < lowestTooHigh?.guess ?? .max { lowestTooHigh = judgement }
        case .correct:
            if correct.count < 8, !correct.contains(where: { $0.guess == judgement.guess }) { correct.append(judgement) }
        case .outOfRange:
            if range.contains(judgement.guess), misjudgedOutOfRange == nil { misjudgedOutOfRange = judgement }
        case .roundOver:
            break
        }
    }

    /// Checks `reveal` against the commitment and the verdicts seen.
    public func check(_ reveal: RoundWon) -> FairnessCheck {
        var problems: [String] = []
        let secret = reveal.secret
        if reveal.round != round {
            problems.append("the reveal is for round \(reveal.round), not round \(round)")
        }
        if reveal.commitment != commitment {
            problems.append("the reveal names another commitment than the one published when round \(round) started")
        }
        if !commitment.verify(secret: secret, salt: reveal.salt) {
            problems.append("the revealed secret \(secret) and salt do not match the commitment published when round \(round) started")
        }
        if !range.contains(secret) {
            problems.append("the revealed secret \(secret) is outside the range \(range)")
        }
        if let low = highestTooLow, low.guess >= secret {
            problems.append("\(low.player.displayText)'s guess \(low.guess) was called too low, but the secret \(secret) is not greater")
        }
        if let high = lowestTooHigh, high.guess <= secret {
            problems.append("\(high.player.displayText)'s guess \(high.guess) was called too high, but the secret \(secret) is not smaller")
        }
        for claim in correct where claim.guess != secret {
            problems.append("\(claim.player.displayText)'s guess \(claim.guess) was called correct, but the secret was \(secret)")
        }
        if let wrong = misjudgedOutOfRange {
            problems.append("\(wrong.player.displayText)'s guess \(wrong.guess) was called out of range, but \(range) holds it")
        }
        return FairnessCheck(round: reveal.round, problems: problems)
    }
}
