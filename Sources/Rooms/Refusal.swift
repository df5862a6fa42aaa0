import Logging

/// Why the host refused something a guest sent; each kind is logged once per guest.
@usableFromInline package enum Refusal: String, Sendable, Hashable {
    /// A message of a type the host does not take.
    case unknownType
    /// A message of a known type whose payload could not be decoded.
    case undecodable
    /// A chat line beyond the characters or bytes limit.
    case chatTooLong
    /// A rename to a name that breaks the rules.
    case invalidName
    /// Moves (guesses) or chat faster than their throttle.
    case throttled
    /// Messages beyond the guest's budget.
    case overBudget
    /// So many messages beyond the budget that the guest was disconnected.
    case cutOff

    /// The log line's message.
    package var sentence: Logger.Message {
        switch self {
        case .unknownType: "Peer sent a message of an unknown type; it was ignored (and any more are, unlogged)."
        case .undecodable: "Peer sent a message that could not be decoded; it was ignored (and any more are, unlogged)."
        case .chatTooLong: "Peer sent a chat line over the limit; it was refused (and any more are, unlogged)."
        case .invalidName: "Peer asked for a name that breaks the rules; it was refused (and any more are, unlogged)."
        case .throttled: "Peer sent guesses or chat faster than the host allows; the extra ones were refused (and any more are, unlogged)."
        case .overBudget: "Peer sent more messages than its budget; the extra ones were ignored unread (and any more are, unlogged)."
        case .cutOff: "Peer kept sending more messages than its budget; it was disconnected."
        }
    }

    /// The refusal a request was turned down with: throttled when it says nothing (a
    /// throttle's repeated refusals), otherwise by the error's code.
    package init(_ error: GameError?) {
        switch error?.code {
        case .chatTooLong?: self = .chatTooLong
        case .invalidName?: self = .invalidName
        default: self = .throttled
        }
    }
}
