import EventBus

extension EventName where Payload == PeerStateChange {
    /// Posted by a ``Session`` whenever a remote peer's ``PeerState`` changes.
    public static var stateChanged: EventName<PeerStateChange> { EventName("multipeer.stateChanged") }
}

extension EventName where Payload == ReceivedData {
    /// Posted by a ``Session`` for every message that arrives from a connected peer.
    public static var dataReceived: EventName<ReceivedData> { EventName("multipeer.dataReceived") }
}

extension EventName where Payload == SessionDiagnostic {
    /// Posted by a ``Session`` when something went wrong that no caller is waiting for, such
    /// as a connection dropped for sending garbage before it became a peer.
    public static var sessionDiagnostic: EventName<SessionDiagnostic> { EventName("multipeer.sessionDiagnostic") }
}

/// A problem a ``Session`` met and handled on its own, reported so that programs can log it.
public struct SessionDiagnostic: Sendable, Hashable {
    /// Where it happened (a remote address or peer name).
    public let source: String
    /// What happened.
    public let error: MultipeerError
}
