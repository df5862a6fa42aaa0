import EventBus
import Foundation
import Multipeer
import SafeText
import Synchronization

/// `guessnum receive`: a drop box on the LAN. It listens, announces itself under
/// ``DropService/serviceType``, asks about each file offered (or takes them all with
/// `acceptAll`), shows each transfer's progress and saves the files in its directory, never
/// over an existing file. A transfer cut by a link drop goes on when the sender is back.
public final class DropBox: Sendable {
    /// What the box's loop reacts to.
    public enum Event: Sendable {
        case offered(ResourceOffer)
        case answered(ResourceOffer, accept: Bool)
        case finished(ResourceCompletion)
        /// Ctrl-C, or the end of the program.
        case stop
    }

    private let session: Session
    private let advertiser: Advertiser
    private let directory: URL
    private let acceptAll: Bool
    private let once: Bool
    private let output: any DropOutput
    private let ask: @Sendable (String) async -> Bool
    private let command: String
    private let inbox: (stream: AsyncStream<Event>, continuation: AsyncStream<Event>.Continuation)

    /// - Parameters:
    ///   - acceptAll: take every file without asking (`--yes`).
    ///   - once: stop after the first file ends, saved or not (`--once`, for scripts).
    ///   - ask: asks the person a yes-or-no question; false when nobody answers.
    public init(
        session: Session, discovery: any DiscoveryBackend, directory: URL, acceptAll: Bool, once: Bool,
        output: any DropOutput, command: String = "guessnum", ask: @escaping @Sendable (String) async -> Bool
    ) {
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

    /// Stops the box from any thread (Ctrl-C): transfers under way are cancelled, and their
    /// partial files removed.
    public func stop() {
        inbox.continuation.yield(.stop)
    }

    /// Runs until ``stop()`` (or, with `once`, the first file's end); returns the exit code:
    /// 0, or with `once` 1 when that file was not saved.
    public func run(port: Int?) async throws(MultipeerError) -> Int32 {
        let boundPort = try await session.startListening(port: port ?? 0, policy: .acceptAll)
        let events = inbox.continuation
        let observations = ObservationBag()
        observations.add(session.events.observe(.resourceOffered) { events.yield(.offered($0)) })
        observations.add(session.events.observe(.resourceFinished) { events.yield(.finished($0)) })
        var listed = true
        do { try await advertiser.start() } catch {
            output.line(error.message)
            listed = false
        }
        printBanner(port: boundPort, listed: listed)
        var transfers = Transfers()
        var exitCode: Int32 = 0
        loop: for await event in inbox.stream {
            switch event {
            case .offered(let offer):
                if acceptAll {
                    await take(offer, into: &transfers)
                } else {
                    transfers.waiting.append(offer)
                    askNext(&transfers)
                }
            case .answered(let offer, let accept):
                transfers.asking = false
                if accept {
                    await take(offer, into: &transfers)
                } else {
                    offer.decline(reason: "\(session.localPeer.displayName) said no")
                    output.line("Declined \(TerminalText.quotedName(offer.name)) from \(offer.peer.displayName).")
                }
                askNext(&transfers)
            case .finished(let completion):
                report(completion)
                if once {
                    if case .failure = completion.result { exitCode = AppFailure.Code.runtime.exitCode }
                    break loop
                }
            case .stop:
                break loop
            }
        }
        for offer in transfers.waiting { offer.decline(reason: "\(session.localPeer.displayName) stopped receiving") }
        for resource in transfers.receiving { resource.cancel() }  // nothing happens to those that ended
        for question in transfers.questions { question.cancel() }  // a question waits on the terminal: not awaited
        for watcher in transfers.watchers { await watcher.value }
        observations.cancelAll()
        await advertiser.stop()
        await session.disconnect(reason: "the drop box closed")
        return exitCode
    }

    /// The transfers the box is dealing with.
    private struct Transfers {
        var waiting: [ResourceOffer] = []
        var asking = false
        var receiving: [IncomingResource] = []
        var watchers: [Task<Void, Never>] = []
        var questions: [Task<Void, Never>] = []
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
        guard !transfers.asking, !transfers.waiting.isEmpty else { return }
        let offer = transfers.waiting.removeFirst()
        transfers.asking = true
        let question = "\(offer.peer.displayName) offers \(TerminalText.quotedName(offer.name)) (\(TransferMeter.bytes(offer.size))). Save it in \(directory.path)? [y/N]"
        let ask = ask
        let events = inbox.continuation
        transfers.questions.append(Task { events.yield(.answered(offer, accept: await ask(question))) })
    }

    private func take(_ offer: ResourceOffer, into transfers: inout Transfers) async {
        do {
            let resource = try await offer.accept(into: directory)
            let verification = session.verificationCode(with: offer.peer).map { " (verification code \($0))" } ?? ""
            output.line("Receiving \(TerminalText.quotedName(offer.name)) (\(TransferMeter.bytes(offer.size))) from \(offer.peer.displayName)\(verification).")
            transfers.receiving.append(resource)
            let output = output
            transfers.watchers.append(Task {
                var meter = TransferMeter(name: TerminalText.sanitized(resource.name))
                for await step in resource.progressUpdates { output.progress(of: resource.name, meter.line(for: step), fraction: step.fractionCompleted) }
            })
        } catch {
            output.line(error.message)
        }
    }

    private func report(_ completion: ResourceCompletion) {
        switch completion.result {
        case .success(let url):
            output.line("Saved \(TerminalText.quotedName(completion.name)) from \(completion.peer.displayName) as \(url.path), its SHA-256 checked.")
        case .failure(let error):
            output.line(error.message)
        }
    }
}
