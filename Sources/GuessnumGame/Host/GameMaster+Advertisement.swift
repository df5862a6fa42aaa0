import Rooms

extension GameMaster {
    /// What this game announces now: its round, range, players and seats, and whether it is private.
    public var advertisement: GameAdvertisement {
        GameAdvertisement(
            range: range.lowerBound...range.upperBound, playerCount: playerCount, maximumPlayers: configuration.maximumPlayers,
            round: roundNumber, isPrivate: isPrivate)
    }
}
