/// Where a ``GameMaster`` sends each tick's ``GameJournal`` to be kept, so that its game can be
/// resumed after a crash (a store, in the `guessnum` program: `GuessnumStore`).
public protocol GameJournalSink: Sendable {
    /// Keeps `journal` (this tick's changes). Called once per tick that changed anything, in
    /// order, under the game's lock: it must return at once (write elsewhere, in order).
    func keep(_ journal: GameJournal)
}
