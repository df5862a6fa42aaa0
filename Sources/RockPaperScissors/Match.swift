import Rooms

/// One match between two seated players: the current throw's commitments and held reveals, the
/// score, and the winner once there is one.
struct Match: Sendable, Hashable, Codable {
    let number: Int
    let players: [PlayerRef]
    let winsNeeded: Int
    private(set) var wins = [0, 0]
    private(set) var throwNumber = 1
    private(set) var commitments: [HandCommitment?] = [nil, nil]
    /// Reveals the host holds until both are in; never shown before.
    private var openings: [RevealedHand?] = [nil, nil]
    private(set) var lastThrow: ThrowResult?
    private(set) var winner: PlayerRef?
    /// Whether both players ran out of time: the match ended without a winner.
    private(set) var abandoned = false

    init(number: Int, players: [PlayerRef], winsNeeded: Int) {
        self.number = number
        self.players = players
        self.winsNeeded = winsNeeded
    }

    var isOver: Bool { winner != nil || abandoned }
    var bothCommitted: Bool { !commitments.contains(nil) }
    func hasRevealed(_ seat: Int) -> Bool { openings[seat] != nil }
    func seat(of player: PlayerRef) -> Int? { players.firstIndex { $0.id == player.id } }
    var score: [SeatScore] { zip(players, wins).map { SeatScore(player: $0, wins: $1) } }
    /// The seats the throw waits for: those yet to commit, then those yet to reveal.
    var awaitedSeats: [Int] {
        guard !isOver else { return [] }
        return bothCommitted ? [0, 1].filter { !hasRevealed($0) } : [0, 1].filter { commitments[$0] == nil }
    }

    /// Seals `digest` for `seat`.
    mutating func commit(_ digest: String, seat: Int) throws(MoveRefusal) -> [RPSEvent] {
        guard let commitment = HandCommitment(rawValue: digest) else { throw .malformedCommitment }
        guard commitments[seat] == nil else { throw .alreadyCommitted }
        commitments[seat] = commitment
        guard bothCommitted else { return [.committed(player: players[seat])] }
        let published = zip(players, commitments.compactMap { $0 }).map { PlayerCommitment(player: $0, commitment: $1) }
        return [.committed(player: players[seat]), .bothCommitted(throwNumber: throwNumber, commitments: published)]
    }

    /// Opens `seat`'s commitment with `hand` and `saltText`; settles the throw once both are open.
    /// A wrong opening is refused and changes nothing: the player may send the right one.
    mutating func reveal(_ hand: Hand, saltText: String, seat: Int) throws(MoveRefusal) -> [RPSEvent] {
        guard bothCommitted, let commitment = commitments[seat] else { throw .revealTooEarly }
        guard openings[seat] == nil else { throw .alreadyRevealed }
        guard let salt = HandSalt(rawValue: saltText), commitment.isOpened(by: hand, salt: salt) else { throw .revealMismatch }
        openings[seat] = RevealedHand(player: players[seat], hand: hand, salt: salt)
        let hands = openings.compactMap { $0 }
        guard hands.count == 2 else { return [.revealed(player: players[seat])] }
        return settle(hands)
    }

    private mutating func settle(_ hands: [RevealedHand]) -> [RPSEvent] {
        let takerSeat = hands[0].hand.beats(hands[1].hand) ? 0 : hands[1].hand.beats(hands[0].hand) ? 1 : nil
        if let takerSeat { wins[takerSeat] += 1 }
        let result = ThrowResult(throwNumber: throwNumber, hands: hands, winner: takerSeat.map { players[$0] }, score: score)
        lastThrow = result
        commitments = [nil, nil]
        openings = [nil, nil]
        guard let takerSeat, wins[takerSeat] >= winsNeeded else {
            throwNumber += 1
            return [.throwRevealed(result: result)]
        }
        winner = players[takerSeat]
        return [.throwRevealed(result: result), .matchWon(winner: players[takerSeat], score: score)]
    }

    /// `seats` did not commit (or reveal) in time: one such player loses the throw, which
    /// starts again; both end the match without a winner.
    mutating func timedOut(seats: [Int]) -> [RPSEvent] {
        guard !isOver, let late = seats.first else { return [] }
        commitments = [nil, nil]
        openings = [nil, nil]
        guard seats.count == 1 else {
            abandoned = true
            return [.abandoned(players: players, score: score)]
        }
        let taker = 1 - late
        wins[taker] += 1
        let told = RPSEvent.outOfTime(player: players[late], score: score)
        guard wins[taker] >= winsNeeded else {
            throwNumber += 1
            return [told]
        }
        winner = players[taker]
        return [told, .matchWon(winner: players[taker], score: score)]
    }

    /// `seat` gave up mid-match: the other player wins.
    mutating func forfeit(seat: Int) -> [RPSEvent] {
        let other = players[1 - seat]
        winner = other
        return [.forfeit(leaver: players[seat], winner: other, score: score)]
    }
}
