/// One thing a screen shows: the text people read and, for a console that writes for programs
/// (`--json`), the event it is — so that which of the two is printed is the console's choice,
/// made in one place, not every caller's.
public struct ScreenLine: Sendable {
    /// What people read (one line or several).
    public let text: String
    /// The event as one JSON line (`{"event":NAME,"data":…}`), made only when asked; nil for a
    /// plain message.
    public let event: (@Sendable () -> String)?

    /// A plain message.
    public init(_ text: String) {
        self.text = text
        event = nil
    }

    /// An event, read as `text` by people and as `event()` by programs.
    public init(_ text: String, event: @escaping @Sendable () -> String) {
        self.text = text
        self.event = event
    }
}

extension Console {
    /// Shows `line`: its text, unless the console writes for programs (see ``Console/show(_:)``).
    public func print(_ line: ScreenLine) { show(line) }

    /// Shows each of `lines`, in order.
    public func print(_ lines: [ScreenLine]) {
        for line in lines { show(line) }
    }

    public func show(_ line: ScreenLine) { print(line.text) }
}
