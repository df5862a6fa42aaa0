import CAvahi
import Dispatch
import Logging
import Multipeer

/// One Avahi threaded poll and one client, shared by every publication and browse of an
/// ``AvahiDiscovery``.
///
/// Threading: Avahi runs its loop and every callback on the poll's own thread with the poll
/// lock held; any call from another thread goes through ``locked(_:)``. All mutable state of
/// this class and of its records is touched only under that lock, which is what makes the
/// `@unchecked Sendable` true. Events for Swift code never run on the poll thread: records hand
/// them to ``delivery``, so a handler may call back into Avahi without deadlocking.
///
/// The client is made with `AVAHI_CLIENT_NO_FAIL`: while the daemon is down it waits in the
/// connecting state, and when the daemon comes (back) every publication and browse is created
/// again by itself.
final class AvahiRuntime: @unchecked Sendable {
    private let poll: OpaquePointer
    private var client: OpaquePointer?
    private(set) var isRunning = false
    private var pollStarted = false
    private var publications: [ObjectIdentifier: AvahiPublicationRecord] = [:]
    private var browses: [ObjectIdentifier: AvahiBrowseRecord] = [:]
    /// Where events leave the poll thread, in order.
    let delivery = DispatchQueue(label: "multipeer.avahi.events")
    private let logger: Logger
    /// Twice a second, under the lock: browses make their browsers anew when it is time
    /// (``AvahiBrowseRecord/refresh(on:at:)``).
    private var ticker: DispatchSourceTimer?

    init(logger: Logger) throws(MultipeerError) {
        self.logger = logger
        guard let poll = avahi_threaded_poll_new() else { throw .avahiUnavailable("could not create its event loop") }
        self.poll = poll
        // From here on `deinit` runs even when init throws, and it frees whatever was made.
        // The runtime frees the client (stopping every callback) in deinit, before it dies,
        // so the client may hold it unretained.
        var error: Int32 = 0
        guard makeClient(&error) else { throw .avahiUnreachable(error) }
        guard avahi_threaded_poll_start(poll) >= 0 else { throw .avahiUnavailable("could not start its event loop") }
        pollStarted = true
        let ticker = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "multipeer.avahi.refresh"))
        ticker.schedule(deadline: .now() + .milliseconds(500), repeating: .milliseconds(500), leeway: .milliseconds(100))
        ticker.setEventHandler { [weak self] in self?.refreshBrowses() }
        ticker.resume()
        self.ticker = ticker
    }

    /// Lets each browse make its browser anew when its cycle says so.
    private func refreshBrowses() {
        try? locked {
            guard isRunning, let client, !browses.isEmpty else { return }
            let now = ContinuousClock.now
            for record in browses.values { record.refresh(on: client, at: now) }
        }
    }

    deinit {
        ticker?.cancel()
        if pollStarted { avahi_threaded_poll_stop(poll) }
        for record in publications.values { record.detach() }
        for record in browses.values { record.detach() }
        if let client { avahi_client_free(client) }
        avahi_threaded_poll_free(poll)
    }

    /// Runs `body` holding the poll lock. Never call it on the poll thread (from a callback).
    func locked<T>(_ body: () throws(MultipeerError) -> T) throws(MultipeerError) -> T {
        avahi_threaded_poll_lock(poll)
        defer { avahi_threaded_poll_unlock(poll) }
        return try body()
    }

    /// The daemon's version as it tells it (“avahi 0.8”), when it runs. Call under the lock.
    var daemonVersion: String? {
        guard isRunning, let client, let version = avahi_client_get_version_string(client) else { return nil }
        return String(cString: version)
    }

    // MARK: Records (call under the lock)

    func add(_ record: AvahiPublicationRecord) {
        publications[ObjectIdentifier(record)] = record
        if isRunning, let client { record.register(on: client) } else { record.reportDaemonMissing() }
    }

    func remove(_ record: AvahiPublicationRecord) {
        publications[ObjectIdentifier(record)] = nil
        record.withdraw()
    }

    func add(_ record: AvahiBrowseRecord) {
        browses[ObjectIdentifier(record)] = record
        if isRunning, let client { record.start(on: client) } else { record.reportDaemonMissing() }
    }

    func remove(_ record: AvahiBrowseRecord) {
        browses[ObjectIdentifier(record)] = nil
        record.stop()
    }

    // MARK: Client (on the poll thread)

    @discardableResult
    private func makeClient(_ error: inout Int32) -> Bool {
        let created = avahi_client_new(
            avahi_threaded_poll_get(poll), AVAHI_CLIENT_NO_FAIL, avahiClientCallback,
            Unmanaged.passUnretained(self).toOpaque(), &error)
        if created != nil { client = created }
        return created != nil
    }

    func clientChanged(_ changed: OpaquePointer?, _ state: AvahiClientState) {
        if client == nil { client = changed }  // the first call comes from inside avahi_client_new
        switch state {
        case AVAHI_CLIENT_S_RUNNING:
            if !isRunning { logger.debug("Connected to the Avahi daemon.") }
            isRunning = true
            guard let client = changed else { return }
            for record in publications.values { record.register(on: client) }
            for record in browses.values { record.start(on: client) }
        case AVAHI_CLIENT_S_COLLISION, AVAHI_CLIENT_S_REGISTERING:
            // The host name is being (re)registered: services come back once it runs again.
            for record in publications.values { record.resetForHostNameChange() }
        case AVAHI_CLIENT_CONNECTING:
            isRunning = false
            for record in publications.values { record.reportDaemonMissing() }
            for record in browses.values { record.reportDaemonMissing() }
        case AVAHI_CLIENT_FAILURE:
            isRunning = false
            let code = changed.map { avahi_client_errno($0) } ?? 0
            // Freeing the client frees every group, browser and resolver made with it.
            for record in publications.values { record.detach() }
            for record in browses.values { record.detach() }
            if let old = changed ?? client { avahi_client_free(old) }
            client = nil
            let error: MultipeerError = code == cavahi_err_disconnected() ? .avahiDaemonStopped : .avahiFailed(code)
            logger.info("Lost the Avahi daemon; reconnecting.", metadata: AvahiDiscovery.metadata(nil, error))
            for record in publications.values { record.report(.failed(error)) }
            for record in browses.values { record.reportGone(error) }
            var ignored: Int32 = 0
            makeClient(&ignored)  // waits, in the connecting state, for the daemon to come back
        default:
            break
        }
    }
}

/// The client's state callback: a plain C function that finds its runtime through `userdata`.
private func avahiClientCallback(_ client: OpaquePointer?, _ state: AvahiClientState, _ userdata: UnsafeMutableRawPointer?) {
    guard let userdata else { return }
    Unmanaged<AvahiRuntime>.fromOpaque(userdata).takeUnretainedValue().clientChanged(client, state)
}
