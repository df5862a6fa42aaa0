import GuessnumGame

/// The game the benchmark hosts.
enum BenchGame {
    /// Guesses are drawn from 1…rangeSize: wide, so a round is rarely won during a run and
    /// nearly every answer is a plain verdict (a win pauses the game for the next round).
    static let rangeSize: UInt64 = 1_000_000_000

    static func range() throws(GameError) -> GuessRange {
        try GuessRange(1, Int64(rangeSize))
    }
}
