import Rooms

/// What the game tells everyone in the room.
///
/// On the wire an event is an object with one key, the case, holding its fields; players are
/// `{"id": "<UUID>", "name": "bob"}` and squares are numbers:
///
/// - `{"roundStarted": {"round": 2, "x": {…}, "o": {…}}}`
/// - `{"waiting": {"round": 1, "player": {…}}}` (`player` left out when nobody is in the room)
/// - `{"placed": {"player": {…}, "mark": "X", "square": 5}}`
/// - `{"won": {"winner": {…}, "mark": "X", "line": [1, 5, 9]}}`
/// - `{"drawn": {}}`
/// - `{"forfeited": {"leaver": {…}, "winner": {…}}}`
/// - `{"outOfTime": {"player": {…}, "winner": {…}}}`
public enum TicTacToeEvent: Sendable, Hashable, Codable {
    /// Round `round` began: `x` moves first against `o`.
    case roundStarted(round: Int, x: PlayerRef, o: PlayerRef)
    /// Round `round` waits for a second player; `player` is the one already there, if any.
    case waiting(round: Int, player: PlayerRef?)
    /// `player` put `mark` on `square`.
    case placed(player: PlayerRef, mark: Mark, square: Square)
    /// `winner` filled `line` with `mark`: the round is over.
    case won(winner: PlayerRef, mark: Mark, line: [Square])
    /// The board is full and nobody has a line: the round is over.
    case drawn
    /// `leaver` gave up their seat during the round, so `winner` wins it.
    case forfeited(leaver: PlayerRef, winner: PlayerRef)
    /// `player` did not move within the room's turn time, so `winner` wins the round.
    case outOfTime(player: PlayerRef, winner: PlayerRef)
}
