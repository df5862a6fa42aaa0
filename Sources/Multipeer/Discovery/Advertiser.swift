import EventBus
import Synchronization

/// Announces a listening ``Session`` so browsers can find and invite it
/// (Apple's `MCNearbyServiceAdvertiser`).
///
/// Stopping withdraws the announcement only: the session keeps its connected peers, and keeps
/// answering invitations from anyone who knows its address until it stops listening. The
/// advertiser posts ``EventName/advertiserEvent`` on the session's bus.
public final class Advertiser: Sendable {
    /// The session being announced.
    public let session: Session
    /// The kind of service announced.
    public let serviceType: ServiceType
    private let discovery: any DiscoveryBackend
    private let state: Mutex<State>

    private struct State {
        var info: DiscoveryInfo
        var publication: (any Publication)?
        var generation = 0
    }

    /// Creates an advertiser for `session`; nothing is announced until ``start()``.
    public init(session: Session, serviceType: ServiceType, discoveryInfo: DiscoveryInfo = DiscoveryInfo(), discovery: any DiscoveryBackend) {
        self.session = session
        self.serviceType = serviceType
        self.discovery = discovery
        state = Mutex(State(info: discoveryInfo))
    }

    /// Whether the session is being announced.
    public var isAdvertising: Bool { state.withLock { $0.publication != nil } }

    /// The facts announced (or to be announced).
    public var discoveryInfo: DiscoveryInfo { state.withLock { $0.info } }

    /// Starts announcing the session. Does nothing when already advertising.
    /// - Throws: ``MultipeerError/Code/notListening`` when the session is not listening, or
    ///   the backend's discovery errors.
    public func start() async throws(MultipeerError) {
        guard let port = session.listeningPort else { throw .notListening }
        let (info, generation): (DiscoveryInfo?, Int) = state.withLock { state in
            state.generation += 1
            return (state.publication == nil ? state.info : nil, state.generation)
        }
        guard let info else { return }
        let events = session.events
        let publication = try await discovery.publish(
            Advertisement(serviceType: serviceType, peer: session.localPeer, port: port, info: info)
        ) { event in
            events.post(.advertiserEvent, event)
        }
        let superseded = state.withLock { state -> Bool in
            guard state.generation == generation, state.publication == nil else { return true }
            state.publication = publication
            return false
        }
        if superseded { await publication.cancel() }
    }

    /// Withdraws the announcement; browsers elsewhere see the peer lost.
    public func stop() async {
        let publication = state.withLock { state in
            state.generation += 1
            defer { state.publication = nil }
            return state.publication
        }
        await publication?.cancel()
    }

    /// Replaces the announced facts, in place when advertising.
    public func update(_ info: DiscoveryInfo) async throws(MultipeerError) {
        let publication = state.withLock { state in
            state.info = info
            return state.publication
        }
        try await publication?.update(info)
    }
}

extension EventName where Payload == PublicationEvent {
    /// Posted by an ``Advertiser`` when its announcement is renamed, established or fails.
    public static var advertiserEvent: EventName<PublicationEvent> { EventName("multipeer.advertiserEvent") }
}
