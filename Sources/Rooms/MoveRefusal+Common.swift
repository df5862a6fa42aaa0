/// Refusals that any game with players and watchers, and with rounds, may give.
extension MoveRefusal {
    /// `watching`: the mover is in the room but not playing this round.
    public static let watching = MoveRefusal("watching", "You are watching this round: wait for a round of your own.")
    /// `roundOver`: no round is being played (it ended, or none has begun).
    public static let roundOver = MoveRefusal("roundOver", "No round is being played: wait for the next one to start.")
}
