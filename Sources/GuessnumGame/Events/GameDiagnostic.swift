import EventBus
import Multipeer

/// Something the game met and handled on its own, reported so that programs can log it: an
/// undecodable or unknown message, a send that failed.
public struct GameDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// Where it came from (a peer's name, or "host").
    public let source: String
    /// What happened, in one sentence.
    public let problem: String

    /// A diagnostic about `source`.
    public init(source: String, problem: String) {
        self.source = source
        self.problem = problem
    }

    public var description: String { "\(source.sanitizedForDisplay): \(problem.sanitizedForDisplay)" }
}

extension EventBus {
    /// Decodes `data` as `Message`; when it is not one, posts a ``GameDiagnostic`` saying so and
    /// returns nil, so that a bad message is logged and ignored, never fatal.
    func decodeGameMessage<Message: GameMessage>(_ type: Message.Type, _ data: ReceivedData) -> Message? {
        do { return try data.decode(type) } catch {
            postGameDiagnostic(data.peer.displayName, "sent a message that was ignored: \(error.message)")
            return nil
        }
    }

    /// Posts a ``GameDiagnostic`` about `source`.
    func postGameDiagnostic(_ source: String, _ problem: String) {
        post(.gameDiagnostic, GameDiagnostic(source: source, problem: problem))
    }
}
