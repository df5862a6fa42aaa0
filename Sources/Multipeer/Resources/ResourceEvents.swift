import EventBus
import Foundation

extension EventName where Payload == ResourceOffer {
    /// Posted by a ``Session`` when a connected peer offers a file
    /// (``Session/sendResource(at:named:to:)`` on its side). Accept it into a directory, or
    /// decline it; an offer nobody answers is declined once it is let go of.
    public static var resourceOffered: EventName<ResourceOffer> { EventName("multipeer.resourceOffered") }
}

extension EventName where Payload == IncomingResource {
    /// Posted by a ``Session`` when a resource it accepted starts arriving: read its progress
    /// there (MultipeerConnectivity's "did start receiving resource … with progress").
    public static var resourceStarted: EventName<IncomingResource> { EventName("multipeer.resourceStarted") }
}

extension EventName where Payload == ResourceCompletion {
    /// Posted by a ``Session`` when a resource it accepted ends: saved at a URL, or failed
    /// (MultipeerConnectivity's "did finish receiving resource … at URL … with error").
    public static var resourceFinished: EventName<ResourceCompletion> { EventName("multipeer.resourceFinished") }
}

/// How a received resource ended, posted as ``EventName/resourceFinished``.
public struct ResourceCompletion: Sendable {
    /// The peer that sent it.
    public let peer: PeerID
    /// The name it was offered under.
    public let name: String
    /// Where it was saved, or why it was not (nothing of it is left on disk then).
    public let result: Result<URL, MultipeerError>
}
