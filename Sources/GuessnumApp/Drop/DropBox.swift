import EventBus
import Foundation
import Multipeer
import SafeText
import Synchronization

/// `guessnum receive`: a drop box on the LAN. It listens, announces itself under
/// ``DropService/serviceType``, asks about each file offered (or takes them all with
/// `acceptAll`), shows each transfer's progress and saves the files in its directory, never
/// over an existing file. A transfer cut by a link drop goes on when the sender is back.
/// A set of files and folders (``DropSetOffer``) is asked about once, and its files are
/// saved under their paths (DropBox+Sets.swift).
///
/// What waits and what runs is bounded (``DropQueue``): a few offers per sender and per
/// network wait for a question, asked one at a time and round the networks; a few transfers
/// run at once; offers of a sender whose link ended are withdrawn.
public final class DropBox: Sendable {
    /// What the box's loop reacts to.
    enum Event: Sendable {
        case offered(ResourceOffer)
        case answered(DropQueue<DropOffer>.Entry, accept: Bool)
        /// A sender offered a set, or said its set ended.
        case setOffered(DropSetRequest)
        case setEnded(PeerID, DropSetEnd)
        /// A sender's set has folders with nothing to send in them.
        case setFolders(PeerID, DropSetFolders)
        /// The grace of the files held for a sender's set passed.
        case heldExpired(PeerID)
        /// The resume window passed since a set's sender left.
        case setExpired(PeerID, set: UUID)
        case finished(ResourceCompletion)
        /// The bytes of a set's file all arrived (its name): it waits to be put in place.
        case setFileArrived(PeerID, name: String)
        /// A sender's link ended.
        case left(PeerID)
        /// Ctrl-C, or the end of the program.
        case stop
    }

    let session: Session
    private let advertiser: Advertiser
    let directory: URL
    /// Where what arrives is kept so that a transfer goes on after either program restarts.
    let store: ResumeStore?
    private let acceptAll: Bool
    let once: Bool
    let output: any DropOutput
    private let ask: @Sendable (String) async -> Bool
    private let command: String
    let inbox: (stream: AsyncStream<Event>, continuation: AsyncStream<Event>.Continuation)
    private let limits: DropQueue<DropOffer>.Limits
    /// The address each connected sender's link came from (its invitation's).
    private let addresses = Mutex<[UUID: String]>([:])

    /// - Parameters:
    ///   - acceptAll: take every file without asking (`--yes`).
    ///   - once: stop after the first file ends, saved or not (`--once`, for scripts).
    ///   - store: where what arrives is kept (a SHA-256 per chunk), so that a transfer goes on
    ///     after either program restarts and a file saved before is not received again; nil
    ///     keeps nothing.
    ///   - ask: asks the person a yes-or-no question; false when nobody answers.
    public convenience init(
        session: Session, discovery: any DiscoveryBackend, directory: URL, acceptAll: Bool, once: Bool,
        output: any DropOutput, command: String = "guessnum", store: ResumeStore? = nil, ask: @escaping @Sendable (String) async -> Bool
    ) {
        self.init(
            session: session, discovery: discovery, directory: directory, acceptAll: acceptAll, once: once, output: output,
            command: command, limits: DropQueue.Limits(), store: store, ask: ask)
    }

    /// A box whose queue has `limits` (tests use small ones).
    init(
        session: Session, discovery: any DiscoveryBackend, directory: URL, acceptAll: Bool, once: Bool,
        output: any DropOutput, command: String, limits: DropQueue<DropOffer>.Limits, store: ResumeStore? = nil,
        ask: @escaping @Sendable (String) async -> Bool
    ) {
        self.limits = limits
        self.store = store
        self.session = session
        advertiser = Advertiser(session: session, serviceType: DropService.serviceType, discovery: discovery)
        self.directory = directory
        self.acceptAll = acceptAll
        self.once = once
        self.output = output
        self.command = command
        self.ask = ask
        inbox = AsyncStream.makeStream(of: Event.self)
    }

    /// Stops the box from any thread (Ctrl-C): transfers under way stop, and what arrived of
    /// them is kept in the box's store (without one, they are cancelled and their partial
    /// files removed), so that their senders' next send goes on from there; one sentence says so.
    public func stop() {
        inbox.continuation.yield(.stop)
    }

    /// Runs until ``stop()`` (or, with `once`, the first file's end); returns the exit code:
    /// 0, or with `once` 1 when that file was not saved.
    public func run(port: Int?) async throws(MultipeerError) -> Int32 {
        let boundPort = try await session.startListening(port: port ?? 0, policy: .custom { [weak self] invitation in
            self?.addresses.withLock { $0[invitation.peer.identity] = invitation.remoteAddress }
            return .accept
        })
        let events = inbox.continuation
        let observations = ObservationBag()
        observations.add(session.events.observe(.resourceOffered) { events.yield(.offered($0)) })
        observations.add(session.events.observe(.resourceFinished) { events.yield(.finished($0)) })
        observations.add(session.events.observe(.stateChanged) { change in
            if change.state == .notConnected { events.yield(.left(change.peer)) }
        })
        let session = session
        observations.add(session.events.observe(.dataReceived) { data in
            if let event = Self.setEvent(data, session: session) { events.yield(event) }
        })
        if let store, case let removed = store.prune(), removed > 0 {
            output.line("Removed what was kept of \(removed == 1 ? "a transfer" : "\(removed) transfers") older than \(store.maximumAge.components.seconds / 3600) h.")
        }
        var listed = true
        do { try await advertiser.start() } catch {
            output.line(error.message)
            listed = false
        }
        printBanner(port: boundPort, listed: listed)
        var transfers = Transfers(queue: DropQueue(limits: limits))
        var exitCode: Int32 = 0
        loop: for await event in inbox.stream {
            switch event {
            case .offered(let offer):
                if transfers.sets[offer.peer.identity] != nil {
                    await takeSetFile(offer, into: &transfers)
                } else if offer.isInFolder {
                    holdSetFile(offer, into: &transfers)
                } else {
                    queue(.file(offer), into: &transfers)
                }
            case .setOffered(let request):
                offerSet(request, into: &transfers)
            case .answered(let entry, let accept):
                transfers.asking = false
                transfers.askingAboutSet = nil
                transfers.askingAboutSetFrom = nil
                let sender = TerminalText.sanitized(entry.offer.peer.displayName)
                if session.state(of: entry.offer.peer) != .connected {
                    output.line("\(sender) left meanwhile: the offer of \(entry.offer.label) was withdrawn.")
                } else if accept {
                    transfers.queue.accept(entry)
                    if transfers.queue.transferCount >= limits.transfersInAll {
                        output.line("\(entry.offer.label) starts when one of the \(limits.transfersInAll) transfers under way ends.")
                    }
                } else {
                    entry.offer.decline(reason: "\(session.localPeer.displayName) said no")
                    output.line("Declined \(entry.offer.label) from \(sender).")
                }
                if !accept || session.state(of: entry.offer.peer) != .connected { declineHeld(from: entry.sender, into: &transfers) }
            case .finished(let completion):
                if transfers.retired[completion.peer.identity]?.isRunning(completion.name) == true {
                    retiredFileFinished(completion, in: &transfers)
                } else if transfers.sets[completion.peer.identity]?.isRunning(completion.name) == true {
                    if let code = await setFileFinished(completion, in: &transfers) {
                        exitCode = code
                        break loop
                    }
                } else {
                    transfers.queue.finished(from: completion.peer.identity)
                    report(completion)
                    if once {
                        if case .failure = completion.result { exitCode = AppFailure.Code.runtime.exitCode }
                        break loop
                    }
                }
            case .setFileArrived(let peer, let name):
                await setFileArrived(name, from: peer, in: &transfers)
            case .setEnded(let peer, let end):
                if let code = setEnded(end, from: peer, in: &transfers) {
                    exitCode = code
                    break loop
                }
            case .setFolders(let peer, let folders):
                makeFolders(folders, from: peer, in: &transfers)
            case .heldExpired(let peer):
                heldExpired(peer, in: &transfers)
            case .setExpired(let peer, let set):
                if let code = setExpired(set, from: peer, in: &transfers) {
                    exitCode = code
                    break loop
                }
            case .left(let peer):
                addresses.withLock { $0[peer.identity] = nil }
                let withdrawn = transfers.queue.withdraw(peer.identity)
                if !withdrawn.isEmpty {
                    output.line("\(TerminalText.sanitized(peer.displayName)) left: \(withdrawn.count == 1 ? "its offer was" : "its \(withdrawn.count) offers were") withdrawn.")
                }
                declineHeld(from: peer.identity, into: &transfers)
                transfers.waitingSetFiles[peer.identity] = nil  // their streams went with the link: the sender offers them again
                setSenderLeft(peer, in: &transfers)
            case .stop:
                break loop
            }
            await pump(&transfers)
        }
        for entry in transfers.queue.takeAll() { entry.offer.decline(reason: "\(session.localPeer.displayName) stopped receiving") }
        let underWay = transfers.receiving + transfers.sets.values.flatMap { $0.running }
        let kept = store == nil ? [] : underWay.filter { $0.stopKeeping() }
        for resource in underWay { resource.cancel() }  // nothing happens to those that ended or were kept
        for receipt in transfers.sets.values { receipt.expiry?.cancel() }
        for resource in kept { _ = try? await resource.outcome() }  // what arrived is written before the program ends
        if let line = Self.keptOnStop(kept) { output.line(line) }
        for offer in Array(transfers.heldFiles.values.joined()) + Array(transfers.waitingSetFiles.values.joined()) {
            offer.decline(reason: "\(session.localPeer.displayName) stopped receiving")
        }
        for timer in transfers.heldTimers.values { timer.cancel() }
        for question in transfers.questions { question.cancel() }  // a question waits on the terminal: not awaited
        for watcher in transfers.watchers { await watcher.value }
        observations.cancelAll()
        await advertiser.stop()
        await session.disconnect(reason: "the drop box closed")
        return exitCode
    }

    /// Starts what may start (accepted offers, or with `--yes` waiting ones) and asks the next
    /// question when none is being asked.
    private func pump(_ transfers: inout Transfers) async {
        for entry in transfers.queue.startable(takingWaiting: acceptAll) {
            switch entry.offer {
            case .file(let offer):
                if !(await take(offer, into: &transfers)) { transfers.queue.finished(from: entry.sender) }
            case .set(let request):
                startSet(request, into: &transfers)
                transfers.heldTimers.removeValue(forKey: request.peer.identity)?.cancel()
                for offer in transfers.heldFiles.removeValue(forKey: request.peer.identity) ?? [] { await takeSetFile(offer, into: &transfers) }
            }
        }
        if !acceptAll { askNext(&transfers) }
    }

    /// Queues `offer` to be asked about (or taken, with `--yes`), or declines it at once when
    /// too many wait.
    func queue(_ offer: DropOffer, into transfers: inout Transfers) {
        let network = RemoteAddress.limitGroup(of: addresses.withLock { $0[offer.peer.identity] } ?? "")
        if let refusal = transfers.queue.add(offer, from: offer.peer.identity, network: network) {
            offer.decline(reason: refusal)
        }
    }

    /// The transfers the box is dealing with.
    struct Transfers {
        var queue: DropQueue<DropOffer>
        var asking = false
        var receiving: [IncomingResource] = []
        var watchers: [Task<Void, Never>] = []
        var questions: [Task<Void, Never>] = []
        /// The sets accepted and under way, by sender identity (one each).
        var sets: [UUID: DropSetReceipt] = [:]
        /// The set the question under way is about, if it is about a set.
        var askingAboutSet: UUID?
        /// The sender of that set.
        var askingAboutSetFrom: UUID?
        /// The ids of the sets that ended lately (at most 64), whose offer a sender's reconnection
        /// may bring again: it is not asked about twice.
        var endedSets: [UUID] = []
        /// Files of a set that waits for its answer, by sender: a sender that connected again
        /// to a restarted box offers its set again and the files it had under way at once.
        var heldFiles: [UUID: [ResourceOffer]] = [:]
        /// Sets ended because their sender came back with another (it restarted), while their
        /// files under way end, by sender.
        var retired: [UUID: DropSetReceipt] = [:]
        /// The grace timers of held files, by sender (cancelled at the end, not awaited).
        var heldTimers: [UUID: Task<Void, Never>] = [:]
        /// Files of an accepted set held while its most files at once are under way, by sender.
        var waitingSetFiles: [UUID: [ResourceOffer]] = [:]
    }

    private func printBanner(port: Int, listed: Bool) {
        let addresses = LocalAddresses.current()
        let direct = "\(command) send FILE \(addresses.bestForDirectJoin):\(port)"
        output.line("Receiving files into \(directory.path) as \(session.localPeer.displayName). "
            + (listed ? "Senders pick you from `\(command) send FILE`, or send directly: \(direct)"
                : "Senders cannot find you in the list while discovery is unavailable; they send directly: \(direct)"))
        let code = JoinCode(identity: session.localPeer.identity, port: port, addresses: addresses.forJoinCode)
        if !code.addresses.isEmpty {
            output.line("Where the list cannot reach, they send with this code, which also proves it is you: \(command) send FILE \(code.text)")
        }
        output.line(acceptAll ? "Every file offered is saved (--yes). Ctrl-C stops." : "You are asked about each file. Ctrl-C stops.")
    }

    private func askNext(_ transfers: inout Transfers) {
        guard !transfers.asking, let entry = transfers.queue.nextQuestion() else { return }
        transfers.asking = true
        if case .set(let request) = entry.offer {
            transfers.askingAboutSet = request.offer.set
            transfers.askingAboutSetFrom = request.peer.identity
        }
        let question = entry.offer.question(savingIn: directory)
        let ask = ask
        let events = inbox.continuation
        transfers.questions.append(Task { events.yield(.answered(entry, accept: await ask(question))) })
    }

    /// Accepts `offer` and shows its progress; false when it could not start (said).
    private func take(_ offer: ResourceOffer, into transfers: inout Transfers) async -> Bool {
        do {
            let resource = try await offer.accept(into: directory, keepingIn: store)
            let verification = session.verificationCode(with: offer.peer).map { " (verification code \($0))" } ?? ""
            if let note = resource.keptNote { output.line(note) }
            output.line("Receiving \(TerminalText.quotedName(offer.name)) (\(TransferMeter.bytes(offer.size))) from \(TerminalText.sanitized(offer.peer.displayName))\(verification)\(Self.kept(resource)).")
            transfers.receiving.append(resource)
            let output = output
            transfers.watchers.append(Task {
                var meter = TransferMeter(name: TerminalText.sanitized(resource.name))
                for await step in resource.progressUpdates { output.progress(of: resource.name, meter.line(for: step), fraction: step.fractionCompleted) }
            })
            return true
        } catch {
            output.line(error.message)
            return false
        }
    }

    /// What the line that starts a transfer adds about what was kept from before.
    static func kept(_ resource: IncomingResource) -> String {
        if resource.savedBefore { return ": saved before from the same sender and unchanged, so it is not received again" }
        guard resource.keptBytes > 0 else { return "" }
        return "; going on from \(TransferMeter.bytes(resource.keptBytes)) kept from before, its chunks' SHA-256 checked"
    }

    private func report(_ completion: ResourceCompletion) {
        switch completion.result {
        case .success(let url):
            output.line("Saved \(TerminalText.quotedName(completion.name)) from \(TerminalText.sanitized(completion.peer.displayName)) as \(url.path), its SHA-256 checked.")
        case .failure(let error):
            output.line(error.message)
        }
    }
}
