import EventBus

extension EventName where Payload == PeerStateChange {
    /// Posted by a ``Session`` whenever a remote peer's ``PeerState`` changes.
    public static var stateChanged: EventName<PeerStateChange> { EventName("multipeer.stateChanged") }
}

extension EventName where Payload == ReceivedData {
    /// Posted by a ``Session`` for every message that arrives from a connected peer.
    public static var dataReceived: EventName<ReceivedData> { EventName("multipeer.dataReceived") }
}

extension EventName where Payload == PeerBacklogChange {
    /// Posted by a ``Session`` when a connected peer becomes backlogged (it stopped reading as
    /// fast as it is sent to) and when it has drained again.
    public static var backlogChanged: EventName<PeerBacklogChange> { EventName("multipeer.backlogChanged") }
}

extension EventName where Payload == IncomingStream {
    /// Posted by a ``Session`` when a connected peer opens a byte stream to this side
    /// (``Session/openStream(named:to:)`` on its side). Read the stream's chunks, or cancel it.
    public static var streamOpened: EventName<IncomingStream> { EventName("multipeer.streamOpened") }
}

extension EventName where Payload == ResentMessages {
    /// Posted by a ``Session`` when a peer whose link dropped is connected again and the
    /// messages it had not received (sent to it just before the drop) go out again, in order,
    /// on links with message resume (``WireProtocol/Feature/resume``). Each still arrives once.
    public static var messagesResent: EventName<ResentMessages> { EventName("multipeer.messagesResent") }
}
