import Dispatch
import Multipeer
import MultipeerPOSIX
import Synchronization

/// A network inside one process, for unit tests: a ``Transport`` whose connections carry real
/// frame bytes through the library's codec, a ``DiscoveryBackend`` (``discovery``), the faults
/// that real networks have, and time of its own.
///
/// Time stands still on it until a test moves it (``advanceTime(by:)``): its sessions keep the
/// network's ``manualClock``, so a busy machine delays a test but never makes a peer time out,
/// and a test of a timeout moves the clock past it instead of waiting.
///
/// Endpoints are `memory:PORT`. Each connection comes from a machine of its own, as the
/// accepting side sees it (`clientN.memory:PORT`), so limits per address never mistake two
/// in-memory peers for one machine; those limits are tested over TCP. Every connection end delivers on its own serial queue, so the
/// ordering contract of ``ConnectionHandler`` holds as it does over TCP. Resources sent over it
/// are files on the system's disk (``makeResourceFiles()``).
///
/// ```swift
/// let network = InMemoryNetwork()
/// let host = Session(localPeer: alice, transport: network)
/// let guest = Session(localPeer: bob, transport: network)
/// ```
public final class InMemoryNetwork: Transport, Sendable {
    /// The host name of every in-memory endpoint.
    public static let host = "memory"

    /// Discovery within this network.
    public let discovery: InMemoryDiscovery

    private struct State {
        var nextPort = 40_000
        var connectionsMade = 0
        var listeners: [Int: InMemoryListener] = [:]
        var links: [InMemoryLink] = []
        /// Ports whose connections are never answered (see ``silence(port:)``), and how many
        /// attempts are waiting on them now.
        var silent: Set<Int> = []
        var unanswered = 0
    }

    private let state = Mutex(State())
    /// Deliveries queued on the network's connections and not yet handled.
    let deliveries = InMemoryDeliveries()

    /// The time on this network, which its sessions keep: it moves only when it is moved.
    public let manualClock: ManualClock

    /// ``manualClock``.
    public var clock: any SessionClock { manualClock }

    /// The system's disk (`MultipeerPOSIX`'s `POSIXResourceFiles`), one for each session:
    /// resources sent over the network are real files.
    public func makeResourceFiles() -> any ResourceFiles { POSIXResourceFiles() }

    /// Creates an empty network; `sightingsPerAnnouncement` is passed to ``discovery``.
    public init(sightingsPerAnnouncement: Int = 1, clock: ManualClock = ManualClock()) {
        discovery = InMemoryDiscovery(sightingsPerAnnouncement: sightingsPerAnnouncement)
        manualClock = clock
    }

    // MARK: Time

    /// Moves the network's time forward by `duration`, moment by moment: at each moment when a
    /// tick or a sleeper is due, it runs, and what it sent (heartbeats, closes) is delivered
    /// before the clock moves on, so the peers hear each other as they would in real time.
    public func advanceTime(by duration: Duration) async {
        let target = manualClock.now + duration
        while manualClock.step(toward: target) {
            await deliveries.drained()
        }
        await deliveries.drained()
    }

    /// Waits until everything sent on the network so far has been delivered and handled.
    public func settle() async {
        await deliveries.drained()
    }

    // MARK: Transport

    public func listen(
        port: Int, options: LinkOptions, makeHandler: @escaping @Sendable () -> any ConnectionHandler
    ) async throws(MultipeerError) -> any Listener {
        try state.withLock { state throws(MultipeerError) -> InMemoryListener in
            var chosen = port
            if chosen == 0 {
                while state.listeners[state.nextPort] != nil { state.nextPort += 1 }
                chosen = state.nextPort
                state.nextPort += 1
            }
            if state.listeners[chosen] != nil { throw .listenFailed(port: chosen, "address already in use") }
            let listener = InMemoryListener(network: self, port: chosen, options: options, makeHandler: makeHandler)
            state.listeners[chosen] = listener
            return listener
        }
    }

    /// An in-memory connection opens as soon as it is made: `openTimeout` has nothing to bound.
    public func connect(
        to endpoint: Endpoint, options: LinkOptions, timeout: Duration, openTimeout: Duration, handler: any ConnectionHandler
    ) async throws(MultipeerError) -> any Connection {
        try await connect(to: endpoint, from: nil, options: options, timeout: timeout, handler: handler)
    }

    /// ``connect(to:options:timeout:openTimeout:handler:)`` from the IP address `source`, as the listening
    /// side sees it (by default `clientN.memory`, one per connection); `made` is told of the
    /// link before either end opens (a machine that may be unplugged keeps it from then on).
    func connect(
        to endpoint: Endpoint, from source: String?, options: LinkOptions, timeout: Duration, handler: any ConnectionHandler,
        made: (InMemoryLink) -> Void = { _ in }
    ) async throws(MultipeerError) -> any Connection {
        if state.withLock({ $0.silent.contains(endpoint.port) }) {
            state.withLock { $0.unanswered += 1 }
            try? await manualClock.sleep(for: timeout)
            state.withLock { $0.unanswered -= 1 }
            throw .hostNotAnswering([endpoint], within: timeout)
        }
        guard endpoint.host == Self.host, let listener = state.withLock({ $0.listeners[endpoint.port] }) else {
            throw .connectionFailed(endpoint, "connection refused")
        }
        let link = InMemoryLink(clientPort: endpoint.port)
        let number = state.withLock { state in
            state.connectionsMade += 1
            return state.connectionsMade
        }
        let client = InMemoryConnection(
            link: link, side: .client, options: options, handler: handler, remote: endpoint.description, deliveries: deliveries)
        let server = InMemoryConnection(
            link: link, side: .server, options: listener.options, handler: listener.makeHandler(),
            remote: "\(source.map { $0.contains(":") ? "[\($0)]" : $0 } ?? "client\(number).\(Self.host)"):\(50_000 + number % 10_000)",
            deliveries: deliveries)
        link.attach(client: client, server: server)
        state.withLock { $0.links.append(link) }
        made(link)
        server.open()
        await client.openAndWait()
        return client
    }

    func removeListener(port: Int) {
        _ = state.withLock { $0.listeners.removeValue(forKey: port) }
    }

    // MARK: Faults

    /// Makes every open connection to `port` go silent both ways, as if the other machine lost
    /// power: nothing arrives and nothing reports a close; only heartbeats can tell.
    public func severConnections(toPort port: Int) {
        for link in state.withLock({ $0.links }) where link.clientPort == port { link.sever() }
    }

    /// Ends every open connection to `port` at both ends with an error and no goodbye, as a reset
    /// does (a process killed, a router rebooted): both sides hear at once that the link dropped.
    public func resetConnections(toPort port: Int) {
        for link in state.withLock({ $0.links }) where link.clientPort == port { link.reset() }
    }

    /// Makes connections to `port` go unanswered until their timeout, as to an address whose
    /// packets are dropped (a firewall, a network the caller cannot reach).
    public func silence(port: Int) {
        _ = state.withLock { $0.silent.insert(port) }
    }

    /// How many connection attempts are waiting on silenced ports now.
    public var unansweredAttempts: Int { state.withLock { $0.unanswered } }

    /// A machine on this network: a transport whose own connections a test can cut, as a Wi-Fi
    /// blip on that one machine does (``InMemoryMachine/unplug()``). Its connections come from
    /// the IP address `address` as the listening side sees them, when given (several programs on
    /// one machine, for limits per address); otherwise each from one of its own.
    public func machine(address: String? = nil) -> InMemoryMachine {
        InMemoryMachine(network: self, address: address)
    }

    /// Opens a connection to `port` that the test drives byte by byte, to play a misbehaving
    /// client (one that never says hello, or sends garbage); from the IP address `source`, as the
    /// listening side sees it, when given.
    public func openRawConnection(toPort port: Int, from source: String? = nil) async throws(MultipeerError) -> RawConnection {
        let raw = RawConnection()
        _ = try await connect(to: Endpoint(host: Self.host, port: port), from: source, options: LinkOptions(), timeout: .seconds(1), handler: raw)
        return raw
    }
}

/// A listening port of an ``InMemoryNetwork``.
final class InMemoryListener: Listener {
    let port: Int
    let options: LinkOptions
    let makeHandler: @Sendable () -> any ConnectionHandler
    private unowned let network: InMemoryNetwork

    init(network: InMemoryNetwork, port: Int, options: LinkOptions, makeHandler: @escaping @Sendable () -> any ConnectionHandler) {
        self.network = network
        self.port = port
        self.options = options
        self.makeHandler = makeHandler
    }

    func close() async {
        network.removeListener(port: port)
    }
}
