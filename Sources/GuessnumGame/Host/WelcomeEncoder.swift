import Foundation

/// Encodes welcomes for several newcomers at the cost of one: the game state is encoded once
/// and spliced into each newcomer's message beside its own ``Rooms/PlayerRef``.
///
/// When the state would not fit a frame (long names in a long history), the oldest history,
/// then players, then scoreboard entries are left out until it does.
enum WelcomeEncoder {
    /// Room kept for the `you` part and the message's own keys.
    static let personalReserve = 512

    /// One payload per newcomer, in order.
    static func encode(_ state: GameState, for newcomers: [PlayerRef], payloadLimit: Int) throws -> [Data] {
        let encoder = JSONEncoder()
        var state = state
        var game = try encoder.encode(state)
        while game.count + personalReserve > payloadLimit, shrink(&state) {
            game = try encoder.encode(state)
        }
        let opening = Data("{\"protocolVersion\":\(GameProtocol.version),\"you\":".utf8)
        let middle = Data(",\"game\":".utf8)
        let closing = Data("}".utf8)
        return try newcomers.map { player in
            var payload = opening
            payload.append(try encoder.encode(player))
            payload.append(middle)
            payload.append(game)
            payload.append(closing)
            return payload
        }
    }

    private static func shrink(_ state: inout GameState) -> Bool {
        if !state.history.isEmpty {
            let dropped = max(1, state.history.count / 2)
            state.history.removeFirst(dropped)
            state.earlierJudgements += dropped
        } else if !state.players.isEmpty {
            state.players.removeLast(max(1, state.players.count / 2))
        } else if !state.scoreboard.isEmpty {
            state.scoreboard.removeLast(max(1, state.scoreboard.count / 2))
        } else {
            return false
        }
        return true
    }
}
