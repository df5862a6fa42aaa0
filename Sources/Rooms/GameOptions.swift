/// The settings a host chooses for a game when starting it — `--best-of 5`, `--range 1-500` —
/// declared by the game's module, with their help and validation (an ArgumentParser
/// `ParsableArguments` type in the `guessnum` program), and the rules they make.
///
/// Options every game has (players, grace, turn time, port…) are the room's
/// (``RoomConfiguration``); a game declares only its own. A game whose players take turns says
/// so (``takesTurns``), and the host's turn time then applies to it.
///
/// ```swift
/// public struct RPSOptions: ParsableArguments, GameOptions {
///     @Option(name: .customLong("best-of"), help: "…") var bestOf: Int?
///     public static var takesTurns: Bool { true }
///     public func rules() throws(GameError) -> RPSRules { … }
/// }
/// ```
public protocol GameOptions: Sendable {
    /// The rules these settings make.
    associatedtype Rules: GameRules

    /// Whether the game's players take turns, so that the host's turn time applies to it; false
    /// by default.
    static var takesTurns: Bool { get }

    /// The game's rules for these settings.
    /// - Throws: an error whose description is the sentence for a value the game refuses.
    func rules() throws -> Rules
}

extension GameOptions {
    public static var takesTurns: Bool { false }
}
