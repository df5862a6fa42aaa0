import EventBus
import Synchronization

/// Finds advertised sessions of one service type (Apple's `MCNearbyServiceBrowser`).
///
/// The browser keeps a snapshot of the peers in sight (``peers``) and posts a
/// ``BrowserEvent`` on ``events`` for each change. A peer seen several times (on several
/// interfaces, over IPv4 and IPv6, or announced again) is one peer: it is found once, updated
/// when its facts or addresses change, and lost once. This side's own peer is never reported.
/// Browsers can be stopped and started again any number of times.
public final class Browser: Sendable {
    /// The kind of service looked for.
    public let serviceType: ServiceType
    /// This side's peer, never reported.
    public let localPeer: PeerID
    /// Where the browser posts ``EventName/browserEvent``.
    public let events: EventBus
    private let discovery: any DiscoveryBackend
    private let state = Mutex(State())

    private struct State {
        var peers: [PeerID: DiscoveredPeer] = [:]
        var operation: (any BrowseOperation)?
        var generation = 0
    }

    /// Creates a browser; nothing is searched until ``start()``.
    public init(serviceType: ServiceType, localPeer: PeerID, discovery: any DiscoveryBackend, events: EventBus = EventBus()) {
        self.serviceType = serviceType
        self.localPeer = localPeer
        self.discovery = discovery
        self.events = events
    }

    /// The peers in sight now, by display name.
    public var peers: [DiscoveredPeer] {
        state.withLock { Array($0.peers.values) }.sorted { $0.peer.displayName < $1.peer.displayName }
    }

    /// Whether the browser is searching.
    public var isBrowsing: Bool { state.withLock { $0.operation != nil } }

    /// Starts searching. Does nothing when already searching.
    /// - Throws: the backend's discovery errors.
    public func start() async throws(MultipeerError) {
        let generation: Int? = state.withLock { state in
            guard state.operation == nil else { return nil }
            state.generation += 1
            return state.generation
        }
        guard let generation else { return }
        let operation = try await discovery.browse(serviceType) { [weak self] event in
            self?.receive(event, generation: generation)
        }
        let superseded = state.withLock { state -> Bool in
            guard state.generation == generation, state.operation == nil else { return true }
            state.operation = operation
            return false
        }
        if superseded { await operation.cancel() }
    }

    /// Stops searching and forgets the peers in sight, posting ``BrowserEvent/lost(_:)`` for each.
    public func stop() async {
        let (operation, gone) = state.withLock { state in
            state.generation += 1
            defer { state.operation = nil; state.peers = [:] }
            return (state.operation, Array(state.peers.keys))
        }
        await operation?.cancel()
        for peer in gone { events.post(.browserEvent, .lost(peer)) }
    }

    private func receive(_ event: DiscoveryEvent, generation: Int) {
        let change: BrowserEvent? = state.withLock { state in
            guard state.generation == generation else { return nil }
            switch event {
            case .found(let discovered):
                guard discovered.peer != localPeer else { return nil }
                let previous = state.peers.updateValue(discovered, forKey: discovered.peer)
                if previous == nil { return .found(discovered) }
                if previous != discovered || previous?.peer.displayName != discovered.peer.displayName { return .updated(discovered) }
                return nil
            case .lost(let peer):
                return state.peers.removeValue(forKey: peer) == nil ? nil : .lost(peer)
            case .failed(let error):
                return .failed(error)
            }
        }
        if let change { events.post(.browserEvent, change) }
    }
}

/// What a ``Browser`` reports.
public enum BrowserEvent: Sendable, Hashable {
    /// A peer came into sight.
    case found(DiscoveredPeer)
    /// A peer in sight changed its facts, name or addresses.
    case updated(DiscoveredPeer)
    /// A peer went out of sight.
    case lost(PeerID)
    /// Browsing failed or was interrupted; the sentence says what to do.
    case failed(MultipeerError)
}

extension EventName where Payload == BrowserEvent {
    /// Posted by a ``Browser`` for each change in what it sees.
    public static var browserEvent: EventName<BrowserEvent> { EventName("multipeer.browserEvent") }
}
