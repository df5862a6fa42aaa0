import EventBus
import Foundation
import Multipeer
import MultipeerPOSIX
import SafeText
import Synchronization

/// Who `guessnum send` sends to.
public enum DropTarget: Sendable {
    /// The receiver listening at this address.
    case address(Endpoint)
    /// The receiver of this join code (which also proves it is the one).
    case code(JoinCode)
    /// The receiver of this name, as soon as it is found nearby (`--to`, for scripts).
    case named(String)
    /// One picked from the live list of receivers nearby.
    case pick
}

/// `guessnum send`: finds the receiver, connects, offers the file and shows its progress until
/// the receiver has saved it. When the link drops it connects again by itself, and the transfer
/// goes on from what the receiver holds; ``cancel()`` (Ctrl-C) stops it cleanly.
public final class DropSender: Sendable {
    let session: Session
    private let discovery: any DiscoveryBackend
    let output: any DropOutput
    private let timeout: Duration
    private let pick: @Sendable () async -> String?
    /// The transfers under way, once files are being sent.
    let sending = Mutex(Sending())
    let cancelled = Mutex(false)

    /// What ``cancel()`` stops: nothing before files are sent, then each one under way.
    struct Sending {
        var started = false
        var resources: [OutgoingResource] = []
    }

    /// - Parameters:
    ///   - timeout: how long to wait for the receiver to be found or to answer.
    ///   - pick: reads the person's choice from the list (a number); nil at the end of input.
    public init(
        session: Session, discovery: any DiscoveryBackend, output: any DropOutput, timeout: Duration,
        pick: @escaping @Sendable () async -> String?
    ) {
        self.session = session
        self.discovery = discovery
        self.output = output
        self.timeout = timeout
        self.pick = pick
    }

    /// Cancels the transfer (Ctrl-C): the receiver removes what it has, and no other file of
    /// a set is offered. Returns false when no transfer has started yet (the program may simply end).
    @discardableResult
    public func cancel() -> Bool {
        cancelled.withLock { $0 = true }
        let sending = sending.withLock { $0 }
        guard sending.started else { return false }
        for resource in sending.resources { resource.cancel() }
        return true
    }

    /// Sends `file` to `target`; returns the exit code, which follows the kind of failure
    /// (``AppFailure/Code/exitCode``): 0 saved, 3 declined, turned away, not answering or no
    /// receiver, 64 a bad file name, 1 another failure, 130 cancelled.
    public func run(file: URL, named name: String?, to target: DropTarget) async -> Int32 {
        do throws(MultipeerError) {
            let (receiver, peer): (DiscoveredPeer, PeerID)
            switch try await reach(target) {
            case .reached(let found, let connected): (receiver, peer) = (found, connected)
            case .failed(let kind): return kind.exitCode
            }
            let resource = try session.sendResource(at: file, named: name, to: peer)
            sending.withLock { $0 = Sending(started: true, resources: [resource]) }
            if cancelled.withLock({ $0 }) { resource.cancel() }
            let code = session.verificationCode(with: peer).map { " (verification code \($0))" } ?? ""
            output.line("Offering “\(resource.name)” (\(TransferMeter.bytes(resource.totalBytes))) to \(peer.displayName)\(code); waiting for an answer.")
            return await follow(resource, to: receiver, peer: peer)
        } catch {
            output.line(error.message)
            return AppFailure.Code(error.code).exitCode
        }
    }

    /// The receiver as a discovered peer: found by name or picked from the list, or made from
    /// an address or a code.
    func find(_ target: DropTarget) async throws(MultipeerError) -> DiscoveredPeer? {
        switch target {
        case .address(let endpoint):
            // Whoever answers there: its identity is learnt from the connection.
            return DiscoveredPeer(peer: try PeerID(displayName: "The receiver"), endpoints: [endpoint], info: DiscoveryInfo())
        case .code(let code):
            return DiscoveredPeer(peer: try PeerID(displayName: "The receiver", identity: code.identity), endpoints: code.endpoints(near: NetworkInterfaces.current()), info: DiscoveryInfo())
        case .named(let name):
            return try await withBrowser { browser throws(MultipeerError) in try await find(named: name, with: browser) }
        case .pick:
            return try await withBrowser { browser throws(MultipeerError) in try await choose(with: browser) }
        }
    }

    /// Runs `body` with a browser of receivers nearby (which `body` starts, once it listens),
    /// and stops the browser when `body` is done, however it ends.
    private func withBrowser<T>(_ body: (Browser) async throws(MultipeerError) -> T) async throws(MultipeerError) -> T {
        let browser = Browser(serviceType: DropService.serviceType, localPeer: session.localPeer, discovery: discovery)
        do {
            let result = try await body(browser)
            await browser.stop()
            return result
        } catch {
            await browser.stop()
            throw error
        }
    }

    /// The receiver named `name`, as soon as `browser` finds it; nil after the timeout.
    private func find(named name: String, with browser: Browser) async throws(MultipeerError) -> DiscoveredPeer? {
        let found = browser.events.stream(.browserEvent)
        try await browser.start()
        output.line("Looking for \(name)…")
        let deadline = Task { [timeout] in
            try? await Task.sleep(for: timeout)
            found.cancel()
        }
        defer { deadline.cancel() }
        for await event in found {
            if case .found(let peer) = event, peer.peer.displayName == name { return peer }
            if case .updated(let peer) = event, peer.peer.displayName == name { return peer }
        }
        output.line("No receiver named \(name) was found within \(MultipeerError.secondsText(timeout))")
        return nil
    }

    /// The receiver the person picks by its number from `browser`'s live list; nil at the end
    /// of input.
    private func choose(with browser: Browser) async throws(MultipeerError) -> DiscoveredPeer? {
        let list = ReceiverList()
        let output = output
        let observation = browser.events.observe(.browserEvent) { event in
            if let line = list.apply(event) { output.line(line) }
        }
        defer { observation.cancel() }
        try await browser.start()
        output.line("Receivers nearby (`guessnum receive` on their machine) appear below; type a number and Enter.")
        while let answer = await pick() {
            guard let number = Int(answer.trimmingCharacters(in: .whitespaces)) else {
                output.line("Type the number of a receiver from the list.")
                continue
            }
            switch list.pick(number) {
            case .receiver(let receiver): return receiver
            case .refused(let sentence): output.line(sentence)
            }
        }
        return nil
    }

    /// How a connection to the receiver ended: connected, or not (why is said), with the kind
    /// of failure.
    enum ReceiverConnection {
        case connected(PeerID)
        case notConnected(AppFailure.Code)
    }

    /// The receiver a target names, found and connected to, or the kind of failure (said why).
    enum Reach {
        case reached(DiscoveredPeer, PeerID)
        case failed(AppFailure.Code)
    }

    /// Finds the receiver `target` names and connects to it; not when it cannot be found, declined
    /// or did not answer (said why).
    func reach(_ target: DropTarget) async throws(MultipeerError) -> Reach {
        guard let receiver = try await find(target) else { return .failed(.notFound) }
        switch try await connect(receiver, provenBy: target.provesIdentity) {
        case .connected(let peer): return .reached(receiver, peer)
        case .notConnected(let kind): return .failed(kind)
        }
    }

    /// Connects to `receiver`; not when it declined or did not answer (said why).
    func connect(_ receiver: DiscoveredPeer, provenBy proves: Bool) async throws(MultipeerError) -> ReceiverConnection {
        let outcome: InvitationOutcome
        do {
            outcome = proves
                ? try await session.invite(receiver, timeout: timeout)
                : try await session.invite(receiver.endpoints[0], timeout: timeout)
        } catch where proves && (error.code == .connectionFailed || error.code == .hostNotAnswering) {
            // Picked from the list or named: the person typed no address, and it is a receiver.
            output.line(Self.listedReceiverGone(receiver))
            return .notConnected(error.code == .connectionFailed ? .runtime : .noAnswer)
        }
        switch outcome {
        case .connected(let peer): return .connected(peer)
        case .declined(let reason):
            output.line("\(receiver.peer.displayName) turned the connection down\(reason.map { ": \($0)" } ?? "").")
            return .notConnected(.turnedAway)
        case .timedOut:
            output.line("\(receiver.peer.displayName) did not answer within \(MultipeerError.secondsText(timeout)).")
            return .notConnected(.noAnswer)
        }
    }

    /// What the sender reads when a receiver found on the LAN (picked or named) cannot be
    /// reached where it was announced.
    static func listedReceiverGone(_ receiver: DiscoveredPeer) -> String {
        let name = TerminalText.sanitized(receiver.peer.displayName)
        return "\(name) could not be reached at \(Endpoint.spokenList(receiver.endpoints)), where it was announced: "
            + "\(name) may have stopped `guessnum receive` a moment ago; send again to pick from the receivers there now."
    }

    /// Shows the transfer's progress, connects again whenever the link drops, and waits for
    /// the end.
    private func follow(_ resource: OutgoingResource, to receiver: DiscoveredPeer, peer: PeerID) async -> Int32 {
        let output = output
        let progress = Task {
            var meter = TransferMeter(name: resource.name)
            var starts = 0
            var mismatchSaid = false
            for await step in resource.progressUpdates {
                if resource.heldDidNotMatch, !mismatchSaid {
                    mismatchSaid = true
                    output.line(Self.heldDidNotMatch(resource, peer: peer))
                }
                // A link that came back, or a receiver that held part of it from before.
                let start = resource.lastStart
                if start.count > starts {
                    starts = start.count
                    if start.offset > 0, !resource.receiverHadIt { output.line(Self.goingOn(resource, from: start.offset, peer: peer)) }
                }
                guard step.completedBytes > 0 else { continue }
                output.progress(of: resource.name, meter.line(for: step), fraction: step.fractionCompleted)
            }
        }
        let reconnecting = keepConnected(to: receiver, peer: peer) {}
        defer { reconnecting.cancel() }
        do throws(MultipeerError) {
            try await resource.outcome()
            await progress.value
            output.line("\(peer.displayName) saved “\(resource.name)” (\(TransferMeter.bytes(resource.totalBytes))), its SHA-256 checked.")
            if resource.totalBytes > 0, resource.receiverHadIt {
                output.line("\(peer.displayName) had saved it before from you, unchanged: it was not sent again.")
            }
            return 0
        } catch {
            await progress.value
            output.line(error.message)
            if error.code == .cancelled, cancelled.withLock({ $0 }) { return AppFailure.Code.cancelled.exitCode }
            return AppFailure.Code(error.code).exitCode
        }
    }
}

extension DropSender {
    /// What the sender reads when a transfer goes on from what the receiver holds; with the
    /// bytes sent before that go again, if any (what was on its way when the link dropped).
    static func goingOn(_ resource: OutgoingResource, from offset: Int64, peer: PeerID) -> String {
        let again = resource.resentBytes
        return "Going on from \(TransferMeter.bytes(offset)) of \(TransferMeter.bytes(resource.totalBytes)): what \(peer.displayName) already has"
            + (again > 0 ? "; \(again) bytes sent before go again." : ".")
    }

    /// What the sender reads when what the receiver held of a file is not this file's.
    static func heldDidNotMatch(_ resource: OutgoingResource, peer: PeerID) -> String {
        "What \(peer.displayName) held of “\(resource.name)” does not match this file (its chunks' SHA-256 differ): it starts over."
    }

    /// Connects again to `receiver` whenever the link to `peer` drops (saying so), calling
    /// `reconnected` each time it is back, until the returned task is cancelled.
    func keepConnected(to receiver: DiscoveredPeer, peer: PeerID, reconnected: @escaping @Sendable () -> Void) -> Task<Void, Never> {
        let drops = session.events.stream(.stateChanged)
        let session = session
        let output = output
        return Task {
            defer { drops.cancel() }
            for await change in drops where change.peer == peer && change.state == .notConnected {
                output.line("The link to \(peer.displayName) dropped; connecting again to go on from where it stopped.")
                var backoff = ReconnectBackoff()
                while !Task.isCancelled, !session.connectedPeers.contains(peer) {
                    try? await Task.sleep(for: backoff.nextDelay())
                    if Task.isCancelled { return }
                    if case .connected? = try? await session.invite(DiscoveredPeer(peer: peer, endpoints: receiver.endpoints, info: receiver.info), timeout: .seconds(5)) {
                        reconnected()
                        output.line("Connected to \(peer.displayName) again.")
                    }
                }
            }
        }
    }
}

extension DropTarget {
    /// Whether the receiver found this way has a known identity the connection must prove
    /// (an address names no one: whoever answers there is the receiver).
    var provesIdentity: Bool {
        if case .address = self { false } else { true }
    }
}
