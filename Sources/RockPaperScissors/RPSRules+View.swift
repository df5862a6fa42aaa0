import Rooms

extension RPSRules {
    public func view(for player: PlayerRef?) -> RPSView {
        let viewerSeat = player.flatMap { match?.seat(of: $0) }
        let inRoster = player.map { viewer in roster.contains { $0.id == viewer.id } } ?? false
        guard let match else {
            let phase: RPSView.Phase = roundNumber == 0 ? .notStarted : .waitingForPlayers
            return RPSView(
                match: roundNumber == 0 ? nil : roundNumber, bestOf: settings.bestOf, phase: phase, seats: [], throwNumber: 0,
                lastThrow: nil, winner: nil, role: .watcher, next: inRoster ? .wait : .watch)
        }
        let seats = match.players.indices.map { seat in
            RPSView.Seat(player: match.players[seat], wins: match.wins[seat], committed: match.commitments[seat] != nil, revealed: match.hasRevealed(seat))
        }
        return RPSView(
            match: match.number, bestOf: settings.bestOf, phase: match.isOver ? .over : .playing, seats: seats,
            throwNumber: match.throwNumber, lastThrow: match.lastThrow, winner: match.winner,
            role: viewerSeat == nil ? .watcher : .player, next: viewerSeat.map { nextStep(seat: $0, in: match) } ?? .watch)
    }

    private func nextStep(seat: Int, in match: Match) -> RPSView.NextStep {
        if match.isOver { return .wait }
        if match.commitments[seat] == nil { return .commit }
        return match.bothCommitted && !match.hasRevealed(seat) ? .reveal : .wait
    }
}
