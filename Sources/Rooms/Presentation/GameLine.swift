import Foundation

/// One thing a game shows: its text, and what a program reading the screen as JSON (`--json`)
/// gets for it — an event name and its data. A line that names no event is shown under the
/// name the screen gives what it came from (`game` for an event, `view` for the game's view),
/// with that as its data.
public struct GameLine: Sendable, ExpressibleByStringInterpolation {
    /// What people read (one line or several).
    public var text: StyledText
    /// The event a program reads instead, if the game names one.
    public var record: Record?

    /// A named event and its data, as a program reads it.
    public struct Record: Sendable {
        /// The event's name (`verdict`).
        public var name: String
        /// Its data, encoded as JSON.
        public var data: any Encodable & Sendable

        public init(_ name: String, _ data: any Encodable & Sendable) {
            self.name = name
            self.data = data
        }
    }

    /// `text`, recorded as `record` (nil: under the screen's name for what it came from).
    public init(_ text: StyledText, record: Record? = nil) {
        self.text = text
        self.record = record
    }

    /// Plain `text`.
    public init(_ text: String) {
        self.init(StyledText(text))
    }

    public init(stringLiteral text: String) {
        self.init(StyledText(text))
    }

    public init(stringInterpolation: StyledText.Interpolation) {
        self.init(StyledText(stringInterpolation: stringInterpolation))
    }
}

/// Whom a presenter writes for: the player at this screen (the host at the host's), so that
/// their own moves read "you …".
public struct Reader: Sendable, Hashable {
    /// The identity of the player reading; nil for nobody in particular.
    public var me: UUID?

    public init(me: UUID?) {
        self.me = me
    }

    /// Nobody in particular: every player is named.
    public static let anyone = Reader(me: nil)

    /// Whether `player` is the reader.
    public func isMe(_ player: PlayerRef) -> Bool { player.id == me }

    /// "you" for the reader, anyone else's name standing out.
    public func name(_ player: PlayerRef) -> StyledText {
        isMe(player) ? "you" : StyledText(player.displayText, weight: .strong)
    }
}
