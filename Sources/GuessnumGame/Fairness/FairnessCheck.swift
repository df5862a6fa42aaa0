/// A guest's finding about one round: whether the host was honest.
public struct FairnessCheck: Sendable, Hashable, CustomStringConvertible {
    /// The round checked.
    public let round: Int
    /// What did not add up, one sentence each; empty when the host was honest.
    public let problems: [String]
    /// Whether the host said it chose the secret itself: then an honest reveal proves only
    /// that the secret did not change during the round, not that it was left to chance.
    public let hostChoseSecret: Bool

    /// A finding about `round`; honest when `problems` is empty.
    public init(round: Int, problems: [String], hostChoseSecret: Bool = false) {
        self.round = round
        self.problems = problems
        self.hostChoseSecret = hostChoseSecret
    }

    /// Whether everything added up: the reveal matched the commitment and every verdict seen.
    public var isHonest: Bool { problems.isEmpty }

    /// "round 3: the host was honest" or "round 3: the host cheated: …".
    public var description: String {
        isHonest ? "round \(round): the host was honest" : "round \(round): the host cheated: \(problems.joined(separator: "; "))"
    }
}
