/// The name of one kind of event on an ``EventBus``, typed by the payload its posts carry.
///
/// Like Foundation's `Notification.Name`, a name identifies a channel that any number of
/// observers can listen to; unlike it, the payload's type is part of the name, so a post
/// and its observers always agree on what travels with it.
///
/// ```swift
/// extension EventName where Payload == Int {
///     static let scoreChanged = EventName("scoreChanged")
/// }
/// ```
public struct EventName<Payload: Sendable>: Hashable, Sendable, CustomStringConvertible {
    /// The name's text, unique among the names of one payload type.
    public let rawValue: String

    /// Creates a name for events carrying `Payload`.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }
}

/// The key the bus files observers under: a name and its payload type, so that two names
/// spelled alike but typed differently never see each other's posts.
struct ChannelKey: Hashable, Sendable {
    let rawValue: String
    let payloadType: ObjectIdentifier

    init<Payload>(_ name: EventName<Payload>) {
        rawValue = name.rawValue
        payloadType = ObjectIdentifier(Payload.self)
    }

    /// The payload type and the name's length, not its text: a bus has a few dozen names, so
    /// the few that share both are told apart by `==`, and every post (the session posts each
    /// message received) is spared hashing a string.
    func hash(into hasher: inout Hasher) {
        hasher.combine(payloadType)
        hasher.combine(rawValue.utf8.count)
    }
}
