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
///
/// Avahi asks the network for a browsed type ever more rarely while a browse stays open (its
/// querier waits 1 s, 2 s, 4 s… up to an hour between queries), and it learns of a service
/// otherwise only from the service's own announcements. When those are lost (mDNS that drops
/// packets, a switch that filtered multicast for a while), a game that came back was not seen
/// for minutes, and the records cached for its last run (its TXT) stayed as they were. So the
/// browser is made anew every ``requeryCycle`` (see ``refresh(on:at:)``): each new browser's
/// querier asks at once, and the answers bring what is announced now.
final class AvahiBrowseRecord: @unchecked Sendable {
    private let type: String
    private var browser: OpaquePointer?
    private var browserRetain: Unmanaged<AvahiBrowseRecord>?
    private var sightings: [AvahiSighting.Key: AvahiSighting] = [:]
    /// What was last reported per service name.
    private var merged = SightingMerge()
    private var daemonMissingReported = false
    /// When the current browser was made (its querier then, at the latest), and when the next
    /// one is made while there is none between two.
    private var browserMade: ContinuousClock.Instant?
    private var remakeAt: ContinuousClock.Instant?
    /// After a browser is made anew: the sightings it reported (from Avahi's cache, which it
    /// reads first); those it did not report went while there was no browser.
    private var reconfirmed: Set<AvahiSighting.Key>?
    /// Whether the current browser's "all for now" is still to come: Avahi sends it 1 s after
    /// the querier was made, so at once for a querier another browse left behind.
    private var awaitingAllForNow = false
    /// Since when browsers are made briefly, one after another, to let a querier left behind
    /// by another browse go (see ``refresh(on:at:)``); nil when not.
    private var huntingSince: ContinuousClock.Instant?
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
        makeBrowser(on: client)
    }

    /// How often the browser is made anew, so that Avahi asks the network again.
    ///
    /// Avahi's querier for the type asks when it is made and after 1, 3, 7, 15, 31… s, and is
    /// freed at its next turn once no browser uses it. The browser is freed just before the
    /// querier's turn at 31 s (so that turn frees it) and made again just after it: a new
    /// querier, which asks at once. The type is asked about 5 times in each 32 s, and a service
    /// that went unheard is seen within about 32 s of the network carrying mDNS again. (Only
    /// while this is the one browser of the type on the machine: another keeps the querier and
    /// its back-off alive.)
    static let requeryCycle: (free: Duration, remake: Duration) = (.milliseconds(30_500), .seconds(32))

    /// Frees the browser when its ``requeryCycle`` is over, and makes the next one once the
    /// querier has surely gone. Call under the lock, often (every half second).
    ///
    /// A querier another browse of the type left behind (a `guessnum join` that just ended) is
    /// taken over by the next browser with its back-off, and the cycle above would miss its
    /// turns. Such a browser hears "all for now" at once; then browsers are made only for a
    /// moment, one after another (Avahi's cache is read each time), until the old querier's turn
    /// comes while none holds it and a new browser gets a querier of its own, for at most
    /// ``huntLimit``.
    func refresh(on client: OpaquePointer, at now: ContinuousClock.Instant = .now) {
        if let since = huntingSince, now >= since + Self.huntLimit { huntingSince = nil }
        if huntingSince != nil, browser != nil, !awaitingAllForNow, reconfirmed == nil {
            freeBrowser()
            remakeAt = now + Self.huntGap
        }
        if let made = browserMade, browser != nil, now >= made + Self.requeryCycle.free {
            freeBrowser()
            remakeAt = made + Self.requeryCycle.remake
        }
        if browser == nil, let remakeAt, now >= remakeAt {
            reconfirmed = []
            // A browser Avahi would not make (reported as failed) is tried again a little later.
            self.remakeAt = makeBrowser(on: client) ? nil : now + Self.remakeRetry
        }
    }

    /// How long after Avahi refused to make the browser anew it is asked again.
    static let remakeRetry: Duration = .seconds(5)
    /// While a querier left behind is waited out: the pause between two brief browsers, and
    /// how long this goes on at most (another browse that runs on keeps the querier for good).
    static let huntGap: Duration = .seconds(2)
    static let huntLimit: Duration = .seconds(70)

    @discardableResult
    private func makeBrowser(on client: OpaquePointer) -> Bool {
        let retain = Unmanaged.passRetained(self)
        guard let created = avahi_service_browser_new(
            client, cavahi_if_unspec(), cavahi_proto_unspec(), type, nil, AvahiLookupFlags(rawValue: 0),
            avahiServiceBrowserCallback, retain.toOpaque())
        else {
            retain.release()
            emit(.failed(.avahiBrowseFailed(type, avahi_client_errno(client))))
            return false
        }
        browser = created
        browserRetain = retain
        browserMade = .now
        awaitingAllForNow = true
        return true
    }

    private func freeBrowser() {
        if let browser { avahi_service_browser_free(browser) }
        browser = nil
        browserRetain?.release()
        browserRetain = nil
    }

    /// Frees the browser and every resolver.
    func stop() {
        for sighting in sightings.values { sighting.free() }
        freeBrowser()
        detach()
    }

    /// Forgets the browser and resolvers, which the caller freed (by freeing the client).
    func detach() {
        for sighting in sightings.values { sighting.detach() }
        sightings = [:]
        browser = nil
        browserRetain?.release()
        browserRetain = nil
        browserMade = nil
        remakeAt = nil
        reconfirmed = nil
        awaitingAllForNow = false
        huntingSince = nil
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
            reconfirmed?.insert(key)
            guard sightings[key] == nil, let browser else { return }
            let sighting = AvahiSighting(key: key, owner: self)
            if sighting.resolve(with: avahi_service_browser_get_client(browser), type: type, domain: domain) {
                sightings[key] = sighting
            }
        case AVAHI_BROWSER_REMOVE:
            sightings.removeValue(forKey: key)?.free()
            merge(key.name)
        case AVAHI_BROWSER_CACHE_EXHAUSTED:
            // A browser made anew has read Avahi's cache: what it did not report went meanwhile.
            guard let reconfirmed else { return }
            self.reconfirmed = nil
            for gone in sightings.keys where !reconfirmed.contains(gone) {
                sightings.removeValue(forKey: gone)?.free()
                merge(gone.name)
            }
        case AVAHI_BROWSER_ALL_FOR_NOW:
            guard awaitingAllForNow, let made = browserMade else { return }
            awaitingAllForNow = false
            // Sooner than 1 s after the browser was made: its querier is an older one.
            let inherited = ContinuousClock.now - made < .milliseconds(700)
            if !inherited {
                huntingSince = nil
            } else if huntingSince == nil {
                huntingSince = .now
            }
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
