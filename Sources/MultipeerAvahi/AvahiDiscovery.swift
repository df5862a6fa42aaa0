import CAvahi
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
public final class AvahiDiscovery: DiscoveryBackend, Sendable {
    private let runtime = Mutex<AvahiRuntime?>(nil)

    /// A backend; the connection to the daemon is made on first use.
    public init() {}

    private func connectedRuntime() throws(MultipeerError) -> AvahiRuntime {
        try runtime.withLock { runtime throws(MultipeerError) in
            if let runtime { return runtime }
            let made = try AvahiRuntime()
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
        let record = AvahiPublicationRecord(
            name: advertisement.peer.displayName, type: advertisement.serviceType.dnsSDType, port: port,
            entries: entries, delivery: runtime.delivery, onEvent: onEvent)
        try runtime.locked { runtime.add(record) }
        return AvahiPublication(runtime: runtime, record: record, peer: advertisement.peer)
    }

    public func browse(
        _ serviceType: ServiceType, onEvent: @escaping @Sendable (DiscoveryEvent) -> Void
    ) async throws(MultipeerError) -> any BrowseOperation {
        let runtime = try connectedRuntime()
        let record = AvahiBrowseRecord(type: serviceType.dnsSDType, delivery: runtime.delivery, onEvent: onEvent)
        try runtime.locked { runtime.add(record) }
        return AvahiBrowseOperation(runtime: runtime, record: record)
    }
}

struct AvahiPublication: Publication {
    let runtime: AvahiRuntime
    let record: AvahiPublicationRecord
    let peer: PeerID

    func update(_ info: DiscoveryInfo) async throws(MultipeerError) {
        let entries = try TXTRecord.entries(for: peer, info: info)
        try runtime.locked { () throws(MultipeerError) in try record.update(entries) }
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
