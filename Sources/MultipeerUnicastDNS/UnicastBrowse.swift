import Foundation
import Logging
import Multipeer
import Synchronization

/// Looks for one service type in a unicast domain by asking its DNS server every poll
/// interval, and tells what came into sight and went out of it. It owns its polling task.
///
/// A record in a shared zone is only a hint: a game is listed while its host keeps moving its
/// lease on; one whose lease has not moved for a TTL (its host was killed without withdrawing
/// it) or lapsed long ago is not listed, whatever the two machines' clocks say; the key a host
/// proves in TLS must still match the record's identity when joining.
final class UnicastBrowse: BrowseOperation, Sendable {
    /// The most instances read per poll: a zone full of junk costs a bounded number of questions.
    static let instanceLimit = 256

    private let configuration: UnicastDNSConfiguration
    private let service: DNSName
    private let onEvent: @Sendable (DiscoveryEvent) -> Void
    private let logger: Logger
    private let state = Mutex(State())

    private struct State {
        var poller: Task<Void, Never>?
        var cancelled = false
        var streak = FailureStreak()
    }

    /// What was last seen of one instance.
    struct Sighting: Sendable, Equatable {
        var peer: DiscoveredPeer
        var lease: String
        /// How long its host vouches for it, in seconds: its TXT record's TTL (1 s to an hour).
        var ttl: UInt32
        /// When this browser last saw the lease move (by its own clock).
        var leaseMovedAt: ContinuousClock.Instant
        /// When this browser first saw the service (the first of several claiming one identity
        /// names the peer).
        var firstSeenAt: ContinuousClock.Instant
    }

    init(_ type: ServiceType, configuration: UnicastDNSConfiguration, logger: Logger, onEvent: @escaping @Sendable (DiscoveryEvent) -> Void) {
        self.configuration = configuration
        self.logger = logger
        self.onEvent = onEvent
        service = ServiceRecords.service(type, in: configuration.domain)
    }

    func start() {
        let interval = configuration.pollInterval
        let poller = Task { [weak self] in
            var seen: [DNSName: Sighting] = [:]
            var told: [PeerID: DiscoveredPeer] = [:]
            while !Task.isCancelled {
                guard let self else { return }
                let started = ContinuousClock.now
                seen = await self.poll(after: seen)
                told = self.tell(Self.peers(in: seen), after: told)
                // Every interval from the start of one round to the next, however long a round took.
                try? await Task.sleep(until: max(started + interval, .now))
            }
        }
        let cancelled = state.withLock { state in
            state.poller = poller
            return state.cancelled
        }
        if cancelled { poller.cancel() }
    }

    /// The peers in sight: services that claim one identity are one peer (anyone may publish a
    /// record with another host's `id`), with the first claimant's name and facts, the other
    /// claimants' names (``DiscoveredPeer/otherNames``) and every claimant's addresses, the
    /// first's first; connecting proves which address holds the key.
    static func peers(in seen: [DNSName: Sighting]) -> [PeerID: DiscoveredPeer] {
        let claimants = Dictionary(grouping: seen.values, by: \.peer.peer)
        return claimants.compactMapValues { sightings in
            let ranked = sightings.sorted { ($0.firstSeenAt, $0.peer.peer.displayName) < ($1.firstSeenAt, $1.peer.peer.displayName) }
            return SightingUnion.union(of: Dictionary(uniqueKeysWithValues: ranked.enumerated().map { ($0.offset, $0.element.peer) }))
        }
    }

    /// Tells what changed from `before` to `now`; returns `now`.
    private func tell(_ now: [PeerID: DiscoveredPeer], after before: [PeerID: DiscoveredPeer]) -> [PeerID: DiscoveredPeer] {
        for (peer, discovered) in now where before[peer] != discovered || before[peer]?.peer.displayName != discovered.peer.displayName {
            onEvent(.found(discovered))
        }
        for peer in before.keys where now[peer] == nil { onEvent(.lost(peer)) }
        return now
    }

    func cancel() async {
        let poller = state.withLock { state in
            state.cancelled = true
            defer { state.poller = nil }
            return state.poller
        }
        poller?.cancel()
    }

    /// One round of questions; returns the services in sight.
    private func poll(after before: [DNSName: Sighting]) async -> [DNSName: Sighting] {
        let client = configuration.client
        let now = ContinuousClock.now
        var current: [DNSName: Sighting] = [:]
        do {
            let pointers = try await client.records(.ptr, at: service)
            for case .ptr(let instance) in pointers.map(\.data).prefix(Self.instanceLimit) where instance.isWithin(service) && instance.labels.count == service.labels.count + 1 {
                guard let sighting = try await sighting(of: instance, previously: before[instance], at: now) else { continue }
                current[instance] = sighting
            }
            let recovered = state.withLock { $0.streak.succeeded() }
            if recovered { logger.info("The DNS server answers again.", metadata: ["domain": .string(configuration.domain.description)]) }
        } catch {
            // The server is down or slow: what was in sight stays until its lease goes stale.
            current = before.filter { isFresh($0.value, at: now) }
            let first = state.withLock { $0.streak.failed() }
            if first {
                onEvent(.failed(MultipeerError(.discoveryFailed, "Could not look for games in \(configuration.domain): \(error.message)", underlying: error)))
            }
        }
        return current
    }

    /// The instance as its records now say, or nil when it is not a listable peer: no server, no
    /// address, not this library's record, or a lease that lapsed or stopped moving.
    private func sighting(of instance: DNSName, previously: Sighting?, at now: ContinuousClock.Instant) async throws(DNSError) -> Sighting? {
        let client = configuration.client
        guard case .srv(_, _, let port, let target)? = try await client.records(.srv, at: instance).first?.data else { return nil }
        let textRecords = try await client.records(.txt, at: instance)
        // The host's own TTL, as it refreshes by it; bounded, so that a record cannot keep a
        // dead game listed for longer than an hour.
        let ttl = min(max(textRecords.first?.ttl ?? configuration.ttl, 1), 3_600)
        let texts = textRecords.flatMap { record -> [String] in
            guard case .txt(let strings) = record.data else { return [] }
            return strings.map { String(decoding: $0, as: UTF8.self) }
        }
        let entries = TXTRecord.parse(texts)
        // The name as its host wrote it, when it is the instance's own (the server may have
        // changed the case of the instance's name, and nothing else).
        guard let label = instance.labels.first else { return nil }
        let written = entries[TXTRecord.displayNameKey].flatMap { DNSName.folded($0) == DNSName.folded(label) ? $0 : nil }
        guard let (peer, info) = TXTRecord.peer(named: written ?? label, from: entries) else { return nil }
        let lease = entries[TXTRecord.leaseKey] ?? ""
        // Lapsed by more than a TTL on this machine's clock: not refreshed for long, whatever the skew.
        if let until = UInt64(lease), until + UInt64(ttl) < UInt64(Date().timeIntervalSince1970) { return nil }
        var addresses = try await client.records(.a, at: target) + client.records(.aaaa, at: target)
        addresses = Array(addresses.prefix(16))
        let endpoints = addresses.compactMap { record -> Endpoint? in
            switch record.data {
            case .a(let address), .aaaa(let address): try? Endpoint(host: address, port: Int(port))
            default: nil
            }
        }
        guard !endpoints.isEmpty else { return nil }
        let moved = previously.map { $0.lease != lease } ?? true
        let sighting = Sighting(
            peer: DiscoveredPeer(peer: peer, endpoints: endpoints, info: info), lease: lease, ttl: ttl, leaseMovedAt: moved ? now : previously!.leaseMovedAt,
            firstSeenAt: previously?.firstSeenAt ?? now)
        return isFresh(sighting, at: now) ? sighting : nil
    }

    /// Whether `sighting`'s lease moved within its TTL (and a poll) of `now`.
    private func isFresh(_ sighting: Sighting, at now: ContinuousClock.Instant) -> Bool {
        now - sighting.leaseMovedAt <= .seconds(Int(sighting.ttl)) + configuration.pollInterval
    }
}
