import CAvahi
import Logging
import Multipeer
import Synchronization

/// Discovery over DNS-SD and mDNS through the Avahi daemon's native client API.
///
/// A service is announced under the peer's display name with a TXT record carrying the
/// protocol version (`pv`), the peer identity (`id`) and the ``DiscoveryInfo``. Browsing resolves
/// every service and reports one peer per service name, however many interfaces and protocols
/// it is seen on.
///
/// When `avahi-daemon` is not running, publishing and browsing still succeed: their handlers
/// hear ``PublicationEvent/failed(_:)`` or ``DiscoveryEvent/failed(_:)`` with a
/// ``MultipeerError/Code/discoveryUnavailable`` error that says so, and everything resumes by
/// itself when the daemon starts. The daemon is reached over the D-Bus system bus
/// (`DBUS_SYSTEM_BUS_ADDRESS` chooses which).
///
/// What happens is also logged: a failure to advertise or browse, and the daemon going away, at
/// `.info` (the failures also reach the advertiser's and browser's observers, who tell the
/// user); advertisements established, renamed and updated, and peers found and lost, at
/// `.debug`. The `peer` metadata is the advertised or discovered name, `code` the
/// ``MultipeerError/Code``.
public final class AvahiDiscovery: DiscoveryBackend, Sendable {
    private let runtime = Mutex<AvahiRuntime?>(nil)
    private let logger: Logger

    /// A backend; the connection to the daemon is made on first use.
    /// - Parameter logger: where the backend logs; by default a logger labelled `multipeer.avahi`.
    public init(logger: Logger = Logger(label: "multipeer.avahi")) {
        self.logger = logger
    }

    func connectedRuntime() throws(MultipeerError) -> AvahiRuntime {
        try runtime.withLock { runtime throws(MultipeerError) in
            if let runtime { return runtime }
            let made = try AvahiRuntime(logger: logger)
            runtime = made
            return made
        }
    }

    /// Whether the daemon is reachable now.
    public var isDaemonRunning: Bool {
        guard let runtime = runtime.withLock({ $0 }) else { return false }
        return (try? runtime.locked { runtime.isRunning }) ?? false
    }

    public func publish(
        _ advertisement: Advertisement, onEvent: @escaping @Sendable (PublicationEvent) -> Void
    ) async throws(MultipeerError) -> any Publication {
        let entries = try TXTRecord.entries(for: advertisement.peer, info: advertisement.info)
        guard let port = UInt16(exactly: advertisement.port), port > 0 else {
            throw .avahiPublishFailed(advertisement.peer.displayName, -1)
        }
        let runtime = try connectedRuntime()
        let logger = logger
        let name = advertisement.peer.displayName
        let record = AvahiPublicationRecord(
            name: name, type: advertisement.serviceType.dnsSDType, port: port,
            entries: entries, delivery: runtime.delivery
        ) { event in
            Self.log(event, of: name, to: logger)
            onEvent(event)
        }
        try runtime.locked { runtime.add(record) }
        return AvahiPublication(runtime: runtime, record: record, peer: advertisement.peer, logger: logger)
    }

    public func browse(
        _ serviceType: ServiceType, onEvent: @escaping @Sendable (DiscoveryEvent) -> Void
    ) async throws(MultipeerError) -> any BrowseOperation {
        let runtime = try connectedRuntime()
        let logger = logger
        let type = serviceType.dnsSDType
        let record = AvahiBrowseRecord(type: type, delivery: runtime.delivery) { event in
            Self.log(event, browsing: type, to: logger)
            onEvent(event)
        }
        try runtime.locked { runtime.add(record) }
        return AvahiBrowseOperation(runtime: runtime, record: record)
    }

    private static func log(_ event: PublicationEvent, of name: String, to logger: Logger) {
        switch event {
        case .established: logger.debug("Advertisement established.", metadata: ["peer": .string(name)])
        case .renamed(let new): logger.debug("Advertisement renamed.", metadata: ["peer": .string(name), "name": .string(new)])
        case .failed(let error): logger.info("Advertising failed.", metadata: metadata(name, error))
        }
    }

    private static func log(_ event: DiscoveryEvent, browsing type: String, to logger: Logger) {
        switch event {
        case .found(let found):
            logger.debug("Browser found a peer.", metadata: ["peer": .string(found.peer.displayName), "service": .string(type)])
        case .lost(let peer):
            logger.debug("Browser lost a peer.", metadata: ["peer": .string(peer.displayName), "service": .string(type)])
        case .failed(let error):
            var metadata = metadata(nil, error)
            metadata["service"] = .string(type)
            logger.info("Browsing failed.", metadata: metadata)
        }
    }

    static func metadata(_ peer: String?, _ error: MultipeerError) -> Logger.Metadata {
        var metadata: Logger.Metadata = ["code": .string(error.code.rawValue), "error": .string(error.message)]
        if let peer { metadata["peer"] = .string(peer) }
        return metadata
    }
}

struct AvahiPublication: Publication {
    let runtime: AvahiRuntime
    let record: AvahiPublicationRecord
    let peer: PeerID
    let logger: Logger

    func update(_ info: DiscoveryInfo) async throws(MultipeerError) {
        let entries = try TXTRecord.entries(for: peer, info: info)
        try runtime.locked { () throws(MultipeerError) in try record.update(entries) }
        logger.debug("Advertisement updated.", metadata: ["peer": .string(peer.displayName)])
    }

    func cancel() async {
        try? runtime.locked { runtime.remove(record) }
    }
}

struct AvahiBrowseOperation: BrowseOperation {
    let runtime: AvahiRuntime
    let record: AvahiBrowseRecord

    func cancel() async {
        try? runtime.locked { runtime.remove(record) }
    }
}
