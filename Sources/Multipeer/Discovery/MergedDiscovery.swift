import Synchronization

/// Discovery through several backends at once — mDNS on the LAN and a site's DNS server across
/// subnets, say: an advertisement is announced through each, and a peer seen through any is
/// listed once, with every address it was seen at (the first backend's first), until no backend
/// sees it any more.
public struct MergedDiscovery: DiscoveryBackend {
    /// The backends, the likeliest to give a nearby address first.
    public let backends: [any DiscoveryBackend]

    /// Discovery through `backends`.
    public init(_ backends: [any DiscoveryBackend]) {
        self.backends = backends
    }

    /// Announces `advertisement` through every backend. One that fails is told through
    /// `onEvent` (``PublicationEvent/failed(_:)``) while the others go on.
    /// - Throws: the first backend's error when every backend fails.
    public func publish(_ advertisement: Advertisement, onEvent: @escaping @Sendable (PublicationEvent) -> Void) async throws(MultipeerError) -> any Publication {
        var publications: [any Publication] = []
        var errors: [MultipeerError] = []
        for backend in backends {
            do { publications.append(try await backend.publish(advertisement, onEvent: onEvent)) } catch { errors.append(error) }
        }
        if publications.isEmpty, let first = errors.first { throw first }
        for error in errors { onEvent(.failed(error)) }
        return MergedPublication(publications: publications)
    }

    /// Looks through every backend; each peer is told as the union of what the backends see. A
    /// backend that fails while others still browse is told as
    /// ``MultipeerError/Code/discoveryPartlyUnavailable`` with its own sentence; the failure of
    /// the last one that browsed, as it is.
    /// - Throws: the first backend's error when no backend can browse.
    public func browse(_ serviceType: ServiceType, onEvent: @escaping @Sendable (DiscoveryEvent) -> Void) async throws(MultipeerError) -> any BrowseOperation {
        let merge = SightingUnion(backends: backends.count, onEvent: onEvent)
        var operations: [any BrowseOperation] = []
        var errors: [(index: Int, error: MultipeerError)] = []
        for (index, backend) in backends.enumerated() {
            do { operations.append(try await backend.browse(serviceType) { merge.take($0, from: index) }) } catch { errors.append((index, error)) }
        }
        if operations.isEmpty, let first = errors.first { throw first.error }
        for (index, error) in errors { merge.take(.failed(error), from: index) }
        return MergedBrowse(operations: operations)
    }
}

private struct MergedPublication: Publication {
    let publications: [any Publication]

    func update(_ info: DiscoveryInfo) async throws(MultipeerError) {
        var first: MultipeerError?
        for publication in publications {
            do { try await publication.update(info) } catch { first = first ?? error }
        }
        if let first { throw first }
    }

    func cancel() async {
        for publication in publications { await publication.cancel() }
    }
}

private struct MergedBrowse: BrowseOperation {
    let operations: [any BrowseOperation]

    func cancel() async {
        for operation in operations { await operation.cancel() }
    }
}

/// What each backend sees of each peer, and the union told.
package final class SightingUnion: Sendable {
    private let onEvent: @Sendable (DiscoveryEvent) -> Void
    private let backends: Int
    private struct State {
        /// Peer → what each backend (by index) last reported of it.
        var sightings: [PeerID: [Int: DiscoveredPeer]] = [:]
        /// The backends (by index) whose last word was a failure.
        var failed: Set<Int> = []
    }
    private let state = Mutex(State())

    /// The union of what `backends` backends see (or of ranked sources: 1 counts no failure
    /// as partial).
    package init(backends: Int = 1, onEvent: @escaping @Sendable (DiscoveryEvent) -> Void) {
        self.backends = backends
        self.onEvent = onEvent
    }

    package func take(_ event: DiscoveryEvent, from backend: Int) {
        let told: DiscoveryEvent? = state.withLock { state in
            switch event {
            case .found(let discovered):
                state.failed.remove(backend)
                state.sightings[discovered.peer, default: [:]][backend] = discovered
                return Self.union(of: state.sightings[discovered.peer] ?? [:]).map { .found($0) }
            case .lost(let peer):
                guard state.sightings[peer]?.removeValue(forKey: backend) != nil else { return nil }
                if state.sightings[peer]?.isEmpty ?? true {
                    state.sightings[peer] = nil
                    return .lost(peer)
                }
                return Self.union(of: state.sightings[peer] ?? [:]).map { .found($0) }
            case .failed(let error):
                state.failed.insert(backend)
                // Others still look: the failure is partial, said in the failed way's own words.
                guard state.failed.count < backends else { return event }
                return .failed(MultipeerError(.discoveryPartlyUnavailable, error.message))
            }
        }
        if let told { onEvent(told) }
    }

    /// One peer as several sources see it together (backends, or services that claim one
    /// identity, by rank): see ``DiscoveredPeer/merging(_:)``.
    package static func union(of seen: [Int: DiscoveredPeer]) -> DiscoveredPeer? {
        DiscoveredPeer.merging(seen.keys.sorted().compactMap { seen[$0] })
    }
}
