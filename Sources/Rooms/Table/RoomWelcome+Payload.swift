import Foundation

extension RoomWelcome {
    /// The welcome's JSON within `payloadLimit` bytes: when it would not fit a frame (many long
    /// names), the list of players, then the scores, are halved until it does; ``playerCount``
    /// then says how many there are. A welcome whose view alone is too large is returned as it
    /// is, for the session to refuse.
    func payload(within payloadLimit: Int) throws -> Data {
        var welcome = self
        let everyone = playerCount ?? players.count
        var payload = try JSONEncoder().encode(welcome)
        while payload.count > payloadLimit, !welcome.players.isEmpty || !welcome.scores.isEmpty {
            if !welcome.players.isEmpty {
                welcome.players.removeLast(max(1, welcome.players.count / 2))
                welcome.playerCount = everyone
            } else {
                welcome.scores.removeLast(max(1, welcome.scores.count / 2))
            }
            payload = try JSONEncoder().encode(welcome)
        }
        return payload
    }
}
