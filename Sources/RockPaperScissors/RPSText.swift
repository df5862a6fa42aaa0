import Rooms

/// The sentences a terminal prints for the game: pure functions of events and views, names made
/// safe to print.
public enum RPSText {
    /// One line for `event`: "alice and bob have both chosen.",
    /// "alice: rock, bob: scissors — alice takes the throw (2–0).", "alice wins the match 2–1."
    public static func sentence(for event: RPSEvent) -> String {
        switch event {
        case .matchStarted(let number, let players, let bestOf):
            "Match \(number): \(names(players, joinedBy: " against ")), best of \(bestOf)."
        case .waitingForSecondPlayer(let number):
            "Match \(number) waits for a second player."
        case .committed(let player):
            "\(player.displayText) has chosen."
        case .bothCommitted(_, let commitments):
            "\(names(commitments.map(\.player), joinedBy: " and ")) have both chosen."
        case .revealed(let player):
            "\(player.displayText) has revealed."
        case .throwRevealed(let result):
            sentence(for: result)
        case .matchWon(let winner, let score):
            "\(winner.displayText) wins the match \(scoreText(score, leader: winner))."
        case .forfeit(let leaver, let winner, let score):
            "\(leaver.displayText) gave up their seat: \(winner.displayText) wins the match \(scoreText(score, leader: winner))."
        case .outOfTime(let player, let score):
            "\(player.displayText) did not play in time and loses the throw (\(scoreText(score, leader: nil)))."
        case .abandoned(let players, _):
            "Neither \(names(players, joinedBy: " nor ")) played in time: the match ends without a winner."
        }
    }

    /// "alice: rock, bob: scissors — alice takes the throw (2–0)." or "… — a tie (1–0)."
    public static func sentence(for result: ThrowResult) -> String {
        let hands = result.hands.map { "\($0.player.displayText): \($0.hand)" }.joined(separator: ", ")
        let taker = result.winner.map { "\($0.displayText) takes the throw" } ?? "a tie"
        return "\(hands) — \(taker) (\(scoreText(result.score, leader: nil)))."
    }

    /// "Match 2, best of 3, throw 2: bob 1, carol 0. Choose rock, paper or scissors."
    public static func summary(of view: RPSView) -> String {
        guard let match = view.match, !view.seats.isEmpty else { return "No match is being played. " + prompt(for: view) }
        let wins = view.seats.map { "\($0.player.displayText) \($0.wins)" }.joined(separator: ", ")
        return "Match \(match), best of \(view.bestOf), throw \(view.throwNumber): \(wins). " + prompt(for: view)
    }

    /// What the viewer should do, as a prompt: "Choose rock, paper or scissors.", ….
    public static func prompt(for view: RPSView) -> String {
        switch view.next {
        case .commit: "Choose rock, paper or scissors."
        case .reveal: "Both have chosen: reveal your hand."
        case .wait: view.phase == .playing ? "Wait for the other player." : "Wait for the next match."
        case .watch: "You are watching."
        }
    }

    /// The wins joined by an en dash, `leader`'s first when given ("2–1"); seat order otherwise.
    static func scoreText(_ score: [SeatScore], leader: PlayerRef?) -> String {
        let ordered = score.filter { $0.player == leader } + score.filter { $0.player != leader }
        return ordered.map { String($0.wins) }.joined(separator: "–")
    }

    private static func names(_ players: [PlayerRef], joinedBy separator: String) -> String {
        players.map(\.displayText).joined(separator: separator)
    }
}
