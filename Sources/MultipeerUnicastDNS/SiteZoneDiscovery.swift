import Logging
import Multipeer
import Synchronization

/// Discovery in a site's zones that are found when it starts: looked up through this machine's
/// resolver (``SiteZoneLookup``), or a zone given without its server. Publishing and browsing
/// return at once and begin when the lookup is done, so a slow or absent resolver never holds
/// up the LAN's mDNS beside it.
public struct SiteZoneDiscovery: DiscoveryBackend {
    /// Finds the zones (with their servers) for a purpose; an empty answer means none.
    public typealias Finding = @Sendable (SiteZoneLookup.Purpose) async throws(DNSError) -> [UnicastDNSConfiguration]

    private let finding: Finding
    private let tellsFailures: Bool
    private let logger: Logger

    /// Discovery in the zones `finding` gives. With `tellsFailures` (a zone was asked for), a
    /// failed lookup is told through the events as a sentence; without (the site's zones were
    /// only looked for), it is logged, and the program goes on with mDNS.
    public init(finding: @escaping Finding, tellsFailures: Bool, logger: Logger = Logger(label: "multipeer.unicast-dns")) {
        self.finding = finding
        self.tellsFailures = tellsFailures
        self.logger = logger
    }

    /// Publishes `advertisement` in the registration zone once it is found (a key is needed:
    /// zones are only looked for to publish in when there is one).
    public func publish(_ advertisement: Advertisement, onEvent: @escaping @Sendable (PublicationEvent) -> Void) async throws(MultipeerError) -> any Publication {
        let publication = DeferredPublication(info: advertisement.info)
        publication.begin { [finding, tellsFailures, logger] () async -> (any Publication)? in
            guard let configurations = await Self.found(.publishing, by: finding, tellsFailures: tellsFailures, logger: logger, tell: { onEvent(.failed($0)) }) else { return nil }
            var current = advertisement
            current.info = publication.factsToAnnounce()
            do throws(MultipeerError) {
                return try await MergedDiscovery(configurations.map { UnicastDNSDiscovery(configuration: $0, logger: logger) }).publish(current, onEvent: onEvent)
            } catch {
                onEvent(.failed(error))
                return nil
            }
        }
        return publication
    }

    /// Browses every browse zone once they are found.
    public func browse(_ serviceType: ServiceType, onEvent: @escaping @Sendable (DiscoveryEvent) -> Void) async throws(MultipeerError) -> any BrowseOperation {
        let browse = DeferredBrowse()
        browse.begin { [finding, tellsFailures, logger] () async -> (any BrowseOperation)? in
            guard let configurations = await Self.found(.browsing, by: finding, tellsFailures: tellsFailures, logger: logger, tell: { onEvent(.failed($0)) }) else { return nil }
            return try? await MergedDiscovery(configurations.map { UnicastDNSDiscovery(configuration: $0, logger: logger) }).browse(serviceType, onEvent: onEvent)
        }
        return browse
    }

    /// The zones for `purpose`, or nil when there are none or the lookup failed (told or logged).
    private static func found(
        _ purpose: SiteZoneLookup.Purpose, by finding: Finding, tellsFailures: Bool, logger: Logger, tell: (MultipeerError) -> Void
    ) async -> [UnicastDNSConfiguration]? {
        do throws(DNSError) {
            let configurations = try await finding(purpose)
            // Cancelled while the zone was looked up (a look-up may not heed it): begin nothing,
            // so that nothing is written to the zone only to be withdrawn.
            if Task.isCancelled { return nil }
            if configurations.isEmpty {
                logger.debug("The site names no zone.", metadata: ["purpose": "\(purpose)"])
                return nil
            }
            logger.info("Found the site's zone.", metadata: ["zones": "\(configurations.map(\.domain.description))", "purpose": "\(purpose)"])
            return configurations
        } catch {
            if Task.isCancelled { return nil }
            if tellsFailures {
                tell(MultipeerError(.discoveryFailed, error.message, underlying: error))
            } else {
                logger.info("No site's zone found through the resolver.", metadata: ["reason": "\(error.message)"])
            }
            return nil
        }
    }
}

/// An operation that begins when its zones are found: cancelled before, it never begins, or is
/// cancelled as soon as it has.
final class DeferredStart<Inner: Sendable>: Sendable {
    private let state = Mutex<(inner: Inner?, starting: Task<Void, Never>?, cancelled: Bool)>((nil, nil, false))
    private let cancelling: @Sendable (Inner) async -> Void

    init(cancelling: @escaping @Sendable (Inner) async -> Void) {
        self.cancelling = cancelling
    }

    /// The operation, once begun (nil before, and after cancellation).
    var inner: Inner? { state.withLock { $0.inner } }

    /// Begins `start` in a task of its own; `then` runs once it began, unless cancelled.
    func begin(_ start: @escaping @Sendable () async -> Inner?, then: @escaping @Sendable (Inner) async -> Void = { _ in }) {
        let task = Task {
            guard let inner = await start() else { return }
            let cancelled = state.withLock { state in
                if !state.cancelled { state.inner = inner }
                return state.cancelled
            }
            if cancelled { return await cancelling(inner) }
            await then(inner)
        }
        state.withLock { $0.starting = task }
    }

    func cancel() async {
        let (inner, starting) = state.withLock { state in
            state.cancelled = true
            defer { state.inner = nil }
            return (state.inner, state.starting)
        }
        starting?.cancel()
        if let inner { await cancelling(inner) }
    }
}

/// A publication that begins when its zone is found, with the facts announced by then.
final class DeferredPublication: Publication, Sendable {
    private let facts: Mutex<(now: DiscoveryInfo, announced: DiscoveryInfo?)>
    private let deferred = DeferredStart<any Publication> { await $0.cancel() }

    init(info: DiscoveryInfo) {
        facts = Mutex((info, nil))
    }

    /// The facts to announce now, noted as announced.
    func factsToAnnounce() -> DiscoveryInfo {
        facts.withLock { facts in
            facts.announced = facts.now
            return facts.now
        }
    }

    func begin(_ start: @escaping @Sendable () async -> (any Publication)?) {
        deferred.begin(start) { [weak self] inner in
            // Facts changed while it began.
            guard let changed = self?.facts.withLock({ $0.now != $0.announced ? $0.now : nil }) else { return }
            try? await inner.update(changed)
        }
    }

    func update(_ info: DiscoveryInfo) async throws(MultipeerError) {
        facts.withLock { $0.now = info }
        try await deferred.inner?.update(info)
    }

    func cancel() async { await deferred.cancel() }
}

/// A browse that begins when its zones are found.
final class DeferredBrowse: BrowseOperation, Sendable {
    private let deferred = DeferredStart<any BrowseOperation> { await $0.cancel() }

    func begin(_ start: @escaping @Sendable () async -> (any BrowseOperation)?) { deferred.begin(start) }

    func cancel() async { await deferred.cancel() }
}
