import EventBus

extension EventName where Payload == PeerStateChange {
    /// Posted by a ``Session`` whenever a remote peer's ``PeerState`` changes.
    public static var stateChanged: EventName<PeerStateChange> { EventName("multipeer.stateChanged") }
}

extension EventName where Payload == ReceivedData {
    /// Posted by a ``Session`` for every message that arrives from a connected peer.
    public static var dataReceived: EventName<ReceivedData> { EventName("multipeer.dataReceived") }
}
