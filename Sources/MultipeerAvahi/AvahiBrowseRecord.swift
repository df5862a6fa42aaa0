import CAvahi
import Dispatch
import Foundation
import Multipeer

/// One browse for a service type: its Avahi service browser, a resolver per sighting, and the
/// merge of sightings into peers. Touched only under the poll lock.
///
/// Avahi reports a service once per interface and protocol; each report is a sighting, kept
/// resolved (its resolver stays alive to notice TXT and address changes). A service name is
/// one peer: found when its first sighting resolves, updated when what its sightings say
/// changes, lost when its last sighting goes.
final class AvahiBrowseRecord: @unchecked Sendable {
    private let type: String
    private var browser: OpaquePointer?
    private var browserRetain: Unmanaged<AvahiBrowseRecord>?
    private var sightings: [AvahiSighting.Key: AvahiSighting] = [:]
    /// What was last reported per service name.
    private var merged = SightingMerge()
    private var daemonMissingReported = false
    private let onEvent: @Sendable (DiscoveryEvent) -> Void
    private let delivery: DispatchQueue

    init(type: String, delivery: DispatchQueue, onEvent: @escaping @Sendable (DiscoveryEvent) -> Void) {
        self.type = type
        self.delivery = delivery
        self.onEvent = onEvent
    }

    private func emit(_ event: DiscoveryEvent) {
        let onEvent = onEvent
        delivery.async { onEvent(event) }
    }

    func reportDaemonMissing() {
        guard !daemonMissingReported else { return }
        daemonMissingReported = true
        emit(.failed(.avahiDaemonMissing))
    }

    func start(on client: OpaquePointer) {
        guard browser == nil else { return }
        daemonMissingReported = false
        let retain = Unmanaged.passRetained(self)
        guard let created = avahi_service_browser_new(
            client, cavahi_if_unspec(), cavahi_proto_unspec(), type, nil, AvahiLookupFlags(rawValue: 0),
            avahiServiceBrowserCallback, retain.toOpaque())
        else {
            retain.release()
            emit(.failed(.avahiBrowseFailed(type, avahi_client_errno(client))))
            return
        }
        browser = created
        browserRetain = retain
    }

    /// Frees the browser and every resolver.
    func stop() {
        for sighting in sightings.values { sighting.free() }
        if let browser { avahi_service_browser_free(browser) }
        detach()
    }

    /// Forgets the browser and resolvers, which the caller freed (by freeing the client).
    func detach() {
        for sighting in sightings.values { sighting.detach() }
        sightings = [:]
        browser = nil
        browserRetain?.release()
        browserRetain = nil
    }

    /// The daemon went away: nothing is in sight any more.
    func reportGone(_ error: MultipeerError) {
        for event in merged.removeAll() { emit(event) }
        daemonMissingReported = true
        emit(.failed(error))
    }

    func browserEvent(_ browser: OpaquePointer?, _ key: AvahiSighting.Key, _ event: AvahiBrowserEvent, domain: UnsafePointer<CChar>?) {
        switch event {
        case AVAHI_BROWSER_NEW:
            guard sightings[key] == nil, let browser else { return }
            let sighting = AvahiSighting(key: key, owner: self)
            if sighting.resolve(with: avahi_service_browser_get_client(browser), type: type, domain: domain) {
                sightings[key] = sighting
            }
        case AVAHI_BROWSER_REMOVE:
            sightings.removeValue(forKey: key)?.free()
            merge(key.name)
        case AVAHI_BROWSER_FAILURE:
            let code = browser.map { avahi_client_errno(avahi_service_browser_get_client($0)) } ?? 0
            emit(.failed(.avahiBrowseFailed(type, code)))
        default:
            break
        }
    }

    /// Recomputes what the sightings of `name` say and reports the change, if any.
    func merge(_ name: String) {
        let resolved = sightings.values.filter { $0.key.name == name }.compactMap(\.resolution)
        for event in merged.merge(name, resolved) { emit(event) }
    }
}

private func avahiServiceBrowserCallback(
    _ browser: OpaquePointer?, _ interface: AvahiIfIndex, _ proto: AvahiProtocol, _ event: AvahiBrowserEvent,
    _ name: UnsafePointer<CChar>?, _ type: UnsafePointer<CChar>?, _ domain: UnsafePointer<CChar>?,
    _ flags: AvahiLookupResultFlags, _ userdata: UnsafeMutableRawPointer?
) {
    guard let userdata else { return }
    let record = Unmanaged<AvahiBrowseRecord>.fromOpaque(userdata).takeUnretainedValue()
    let key = AvahiSighting.Key(interface: interface, proto: proto, name: name.map { String(cString: $0) } ?? "")
    record.browserEvent(browser, key, event, domain: domain)
}
