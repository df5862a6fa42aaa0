import SafeText
/// `guessnum.v1.chat-line` — a chat line relayed by the host to everyone (in a
/// `HistoryBatch`); the host's own lines travel the same way.
public struct RelayedChat: GameMessage, Hashable, CustomStringConvertible {
    public static let messageType = "guessnum.v1.chat-line"
    /// The broadcast sequence number.
    public var sequence: UInt64
    /// Who said it.
    public var from: PlayerRef
    /// What was said, as sent.
    public var text: String

    /// Creates the line.
    public init(sequence: UInt64, from: PlayerRef, text: String) {
        self.sequence = sequence
        self.from = from
        self.text = text
    }

    /// "bob: hello", safe to print.
    public var displayText: String { "\(from.displayText): \(TerminalText.sanitized(text))" }

    public var description: String { displayText }
}
