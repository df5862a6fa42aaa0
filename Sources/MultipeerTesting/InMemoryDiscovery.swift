import Multipeer
import Synchronization

/// Discovery inside one process: what is published is seen by every browser of the same
/// service type, with the behaviours of a real mDNS network that the library must absorb.
///
/// - Each announcement can be reported several times (`sightingsPerAnnouncement`), as Avahi
///   reports a service once per interface and protocol.
/// - A second announcement under a taken name is renamed `NAME #2` (then `#3`…), and its
///   publisher hears ``PublicationEvent/renamed(_:)``.
/// - ``isAvailable`` set to false makes publish and browse fail as with a stopped daemon.
public final class InMemoryDiscovery: DiscoveryBackend, Sendable {
    private struct Announcement {
        var advertisement: Advertisement
        var name: String
    }

    private struct Watcher {
        let serviceType: ServiceType
        let onEvent: @Sendable (DiscoveryEvent) -> Void
    }

    private struct State {
        var nextID = 0
        var announcements: [Int: Announcement] = [:]
        var watchers: [Int: Watcher] = [:]
        var available = true
    }

    private let state = Mutex(State())
    private let sightings: Int

    /// Creates the registry; every announcement is reported `sightingsPerAnnouncement` times.
    public init(sightingsPerAnnouncement: Int = 1) {
        sightings = max(1, sightingsPerAnnouncement)
    }

    /// Whether publish and browse work (false plays a stopped discovery daemon).
    public var isAvailable: Bool {
        get { state.withLock { $0.available } }
        set { state.withLock { $0.available = newValue } }
    }

    public func publish(
        _ advertisement: Advertisement, onEvent: @escaping @Sendable (PublicationEvent) -> Void
    ) async throws(MultipeerError) -> any Publication {
        let (id, name, watchers) = try state.withLock { state throws(MultipeerError) in
            guard state.available else { throw Self.unavailable }
            let taken = Set(state.announcements.values.filter { $0.advertisement.serviceType == advertisement.serviceType }.map(\.name))
            var name = advertisement.peer.displayName
            var suffix = 2
            while taken.contains(name) { name = "\(advertisement.peer.displayName) #\(suffix)"; suffix += 1 }
            let id = state.nextID
            state.nextID += 1
            state.announcements[id] = Announcement(advertisement: advertisement, name: name)
            return (id, name, state.watchers.values.filter { $0.serviceType == advertisement.serviceType })
        }
        if name != advertisement.peer.displayName { onEvent(.renamed(name)) }
        onEvent(.established)
        if let sighting = sighting(of: id) {
            for watcher in watchers { report(.found(sighting), to: watcher) }
        }
        return InMemoryPublication(discovery: self, id: id)
    }

    public func browse(
        _ serviceType: ServiceType, onEvent: @escaping @Sendable (DiscoveryEvent) -> Void
    ) async throws(MultipeerError) -> any BrowseOperation {
        let watcher = Watcher(serviceType: serviceType, onEvent: onEvent)
        let (id, visible) = try state.withLock { state throws(MultipeerError) in
            guard state.available else { throw Self.unavailable }
            let id = state.nextID
            state.nextID += 1
            state.watchers[id] = watcher
            return (id, state.announcements.keys.filter { state.announcements[$0]?.advertisement.serviceType == serviceType })
        }
        for announcement in visible {
            if let sighting = sighting(of: announcement) { report(.found(sighting), to: watcher) }
        }
        return InMemoryBrowseOperation(discovery: self, id: id)
    }

    func update(_ id: Int, info: DiscoveryInfo) {
        let watchers: [Watcher] = state.withLock { state in
            guard let announcement = state.announcements[id] else { return [] }
            state.announcements[id]?.advertisement.info = info
            return state.watchers.values.filter { $0.serviceType == announcement.advertisement.serviceType }
        }
        if let sighting = sighting(of: id) {
            for watcher in watchers { report(.found(sighting), to: watcher) }
        }
    }

    func withdraw(_ id: Int) {
        let (announcement, watchers) = state.withLock { state in
            let announcement = state.announcements.removeValue(forKey: id)
            return (announcement, state.watchers.values.filter { $0.serviceType == announcement?.advertisement.serviceType })
        }
        guard let announcement else { return }
        for watcher in watchers { report(.lost(announcement.advertisement.peer), to: watcher) }
    }

    func stopWatching(_ id: Int) {
        _ = state.withLock { $0.watchers.removeValue(forKey: id) }
    }

    private func sighting(of id: Int) -> DiscoveredPeer? {
        state.withLock { state in
            guard let announcement = state.announcements[id],
                  let peer = try? announcement.advertisement.peer.renamed(to: announcement.name),
                  let endpoint = try? Endpoint(host: InMemoryNetwork.host, port: announcement.advertisement.port)
            else { return nil }
            return DiscoveredPeer(peer: peer, endpoints: [endpoint], info: announcement.advertisement.info)
        }
    }

    private func report(_ event: DiscoveryEvent, to watcher: Watcher) {
        for _ in 0..<sightings { watcher.onEvent(event) }
    }

    private static var unavailable: MultipeerError {
        MultipeerError(.discoveryUnavailable, "The in-memory discovery service is switched off.")
    }
}

struct InMemoryPublication: Publication {
    let discovery: InMemoryDiscovery
    let id: Int

    func update(_ info: DiscoveryInfo) async throws(MultipeerError) {
        discovery.update(id, info: info)
    }

    func cancel() async {
        discovery.withdraw(id)
    }
}

struct InMemoryBrowseOperation: BrowseOperation {
    let discovery: InMemoryDiscovery
    let id: Int

    func cancel() async {
        discovery.stopWatching(id)
    }
}
