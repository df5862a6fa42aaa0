import Multipeer

extension GameMaster {
    /// The reason a removed player is given.
    public static let removalReason = "the host removed you from the game"

    /// Removes the player called `name` from the game: their link is closed with
    /// ``removalReason``, and everyone sees them leave.
    /// - Returns: the player removed.
    /// - Throws: ``GameError/Code/noSuchPlayer`` when nobody in the game has that name.
    @discardableResult
    public func remove(named name: String) throws(GameError) -> PlayerRef {
        guard let player = players.first(where: { $0.player.name == name }) else { throw .noSuchPlayer(name) }
        session.disconnect(player.peer, reason: Self.removalReason)
        return player.player
    }
}
