import Foundation
import Logging
import Multipeer
import Synchronization

/// One advertisement published in a unicast domain: written with a signed update, written again
/// three times per TTL with its lease moved on (so that browsers see its host is alive), and
/// withdrawn on ``cancel()``. It owns its refreshing task.
final class UnicastPublication: Publication, Sendable {
    private let configuration: UnicastDNSConfiguration
    private let advertisement: Advertisement
    private let records: ServiceRecords
    private let onEvent: @Sendable (PublicationEvent) -> Void
    private let logger: Logger
    private let state: Mutex<State>

    private struct State {
        var info: DiscoveryInfo
        var refresher: Task<Void, Never>?
        var cancelled = false
        var streak = FailureStreak()
    }

    init(_ advertisement: Advertisement, configuration: UnicastDNSConfiguration, logger: Logger, onEvent: @escaping @Sendable (PublicationEvent) -> Void) {
        self.advertisement = advertisement
        self.configuration = configuration
        self.logger = logger
        self.onEvent = onEvent
        records = ServiceRecords(advertisement, in: configuration.domain)
        state = Mutex(State(info: advertisement.info))
    }

    /// Writes the records, then keeps them fresh until cancelled.
    /// - Throws: the server's refusal, as ``MultipeerError/Code/discoveryFailed``.
    func start() async throws(MultipeerError) {
        try await write()
        let interval = Duration.seconds(Double(configuration.ttl) / 3)
        let pruning = ZonePruning(configuration: configuration, service: records.service, own: records.instance, logger: logger)
        let refresher = Task { [weak self, configuration] in
            var pruned = ContinuousClock.now
            await pruning.run()
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled, let self else { return }
                await self.refresh()
                if ContinuousClock.now - pruned >= configuration.pruneInterval {
                    pruned = .now
                    await pruning.run()
                }
            }
        }
        let cancelled = state.withLock { state in
            state.refresher = refresher
            return state.cancelled
        }
        if cancelled { refresher.cancel() }
    }

    func update(_ info: DiscoveryInfo) async throws(MultipeerError) {
        state.withLock { $0.info = info }
        try await write()
    }

    func cancel() async {
        let refresher = state.withLock { state in
            state.cancelled = true
            defer { state.refresher = nil }
            return state.refresher
        }
        refresher?.cancel()
        // A refresh under way would write the records again after the withdrawal: let it end first.
        await refresher?.value
        do {
            try await configuration.client.update(zone: configuration.domain, deleting: records.owned, removing: [records.pointer(ttl: configuration.ttl)])
        } catch {
            logger.warning("Could not withdraw the game from the DNS server; browsers stop listing it when its lease lapses.", metadata: [
                "domain": .string(configuration.domain.description), "error": .string(error.message),
            ])
        }
    }

    private func refresh() async {
        do {
            try await write()
            let recovered = state.withLock { $0.streak.succeeded() }
            if recovered { onEvent(.established) }
        } catch {
            let first = state.withLock { $0.streak.failed() }
            if first { onEvent(.failed(error)) }
        }
    }

    /// Replaces the records with the current info, addresses and a lease `ttl` from now.
    private func write() async throws(MultipeerError) {
        let info = state.withLock { $0.info }
        let lease = UInt64(Date().timeIntervalSince1970) + UInt64(configuration.ttl)
        let entries = try TXTRecord.entries(for: advertisement.peer, info: info)
            + ["\(TXTRecord.leaseKey)=\(lease)", "\(TXTRecord.displayNameKey)=\(advertisement.peer.displayName)"]
        let all = records.records(port: advertisement.port, entries: entries, addresses: configuration.hostAddresses(), ttl: configuration.ttl)
        do {
            try await configuration.client.update(zone: configuration.domain, deleting: records.owned, adding: all)
        } catch {
            throw MultipeerError(.discoveryFailed, "Could not publish “\(advertisement.peer.displayName)” in \(configuration.domain): \(error.message)", underlying: error)
        }
    }
}
