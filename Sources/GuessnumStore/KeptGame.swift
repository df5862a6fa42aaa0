/// A game kept on disk so that its host can go on with it (`--resume`), whatever the store:
/// what it saved, and its end when the game ended as it should.
public protocol KeptGame: Sendable {
    /// What the store saved of an interrupted game.
    associatedtype Saved: Sendable

    /// The game the store holds, if any.
    /// - Throws: ``GameStoreError`` with a sentence naming the file.
    func load() throws(GameStoreError) -> Saved?
    /// Waits until every change handed over so far is written.
    func waitForWrites() async
    /// Removes the game (it ended as it should).
    func delete()
}

extension RoomStore: KeptGame {}
