import Multipeer
import Synchronization

/// One machine on an ``InMemoryNetwork``: connects and listens through the network, and can be
/// unplugged, as a laptop whose Wi-Fi drops: the connections it made end at both ends with an
/// error and no goodbye, and it cannot connect until it is plugged in again. Others on the
/// network are not touched.
public final class InMemoryMachine: Transport {
    private let network: InMemoryNetwork
    /// The address its connections come from, when fixed.
    private let address: String?
    private let state = Mutex<(links: [InMemoryLink], unplugged: Bool)>(([], false))

    init(network: InMemoryNetwork, address: String? = nil) {
        self.network = network
        self.address = address
    }

    public var provesPeers: Bool { network.provesPeers }

    /// The network's clock.
    public var clock: any SessionClock { network.clock }
    /// The network's disk: the system's.
    public func makeResourceFiles() -> any ResourceFiles { network.makeResourceFiles() }

    public func listen(
        port: Int, options: LinkOptions, makeHandler: @escaping @Sendable () -> any ConnectionHandler
    ) async throws(MultipeerError) -> any Listener {
        try await network.listen(port: port, options: options, makeHandler: makeHandler)
    }

    public func connect(
        to endpoint: Endpoint, options: LinkOptions, timeout: Duration, openTimeout: Duration, handler: any ConnectionHandler
    ) async throws(MultipeerError) -> any Connection {
        guard !state.withLock({ $0.unplugged }) else { throw .connectionFailed(endpoint, "the network is unreachable") }
        // The link is kept before it opens: the other side may answer (and a test unplug this
        // machine) before this call returns.
        return try await network.connect(to: endpoint, from: address, options: options, timeout: timeout, handler: handler) { link in
            state.withLock { $0.links.append(link) }
        }
    }

    /// Cuts this machine off: every connection it made ends with an error and no goodbye, and
    /// new ones fail until ``plugIn()``.
    /// - Parameter othersNotice: whether the other ends of those connections end too (a reset
    ///   reaches them), or hear nothing, as peers whose player's Wi-Fi went away.
    public func unplug(othersNotice: Bool = true) {
        let links = state.withLock { state in
            state.unplugged = true
            defer { state.links = [] }
            return state.links
        }
        for link in links {
            if othersNotice { link.reset() } else { link.resetClientOnly() }
        }
    }

    /// Brings this machine back after ``unplug()``.
    public func plugIn() {
        state.withLock { $0.unplugged = false }
    }
}
