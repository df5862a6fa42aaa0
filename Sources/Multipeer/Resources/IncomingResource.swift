import Crypto
import Foundation
import Synchronization

/// A file arriving from a peer, accepted with ``ResourceOffer/accept(into:)`` and posted as
/// ``EventName/resourceStarted``.
///
/// Its bytes go to a partial file beside the destination. When the link drops, the partial
/// file is kept for ``SessionConfiguration/resourceResumeWindow`` and the transfer goes on
/// from there when the sender offers it again on a new link; a transfer that is cancelled,
/// fails its checks or does not come back removes it.
///
/// Once it ended, the session keeps only its outcome (for the resume window, and for at most
/// 1,024 transfers), to tell a sender that offers it again.
public final class IncomingResource: Sendable {
    /// The peer sending it.
    public let peer: PeerID
    /// The name it was offered under.
    public let name: String
    /// Its size in bytes.
    public let totalBytes: Int64

    private let receiving: ResourceReceiving
    private let task = Mutex<Task<Result<URL, MultipeerError>, Never>?>(nil)

    init(session: Session, arrival: ResourceArrival, file: PartialFile, queue: FileQueue) {
        peer = arrival.peer
        name = arrival.offer.name
        totalBytes = Int64(clamping: arrival.offer.size)
        receiving = ResourceReceiving(session: session, arrival: arrival, file: file, queue: queue)
    }

    /// The bytes received and checked into the partial file so far.
    public var progress: ResourceProgress { receiving.reporter.current }

    /// The progress from now on, starting with the current one; the sequence ends with the
    /// transfer. Each call gives a sequence of its own.
    public var progressUpdates: AsyncStream<ResourceProgress> { receiving.reporter.updates() }

    /// Waits for the end: where the file was saved.
    ///
    /// - Throws: ``MultipeerError/Code/resourceFailed`` when it did not match its offer or
    ///   could not be written; ``MultipeerError/Code/resourceInterrupted`` when the link did not
    ///   come back in time; ``MultipeerError/Code/cancelled`` when either side cancelled.
    public func outcome() async throws(MultipeerError) -> URL {
        // Set by `start()`, which runs before the handle is returned or posted.
        guard let task = task.withLock({ $0 }) else { throw .cancelled }
        return try await task.value.get()
    }

    /// Stops receiving: the sender is told, and the partial file is removed.
    public func cancel() {
        receiving.cancel()
    }

    /// Registers the transfer, posts it and starts receiving.
    func start() {
        let session = receiving.session
        session.resources.addReceiver(self, for: receiving.key)
        session.events.post(.resourceStarted, self)
        let receiving = receiving
        let peer = peer
        let name = name
        let work = Task { [self] in
            let result = await receiving.run()
            // Its outcome is kept a while (not the resource), so a sender whose link dropped
            // before it heard it is told when it offers the transfer again.
            session.resources.receiverEnded(
                receiving.key, self, as: ResourceReceiving.ended(result, session: session), now: session.clock.now,
                window: session.configuration.resourceResumeWindow)
            session.events.post(.resourceFinished, ResourceCompletion(peer: peer, name: name, result: result))
            receiving.reporter.end()
            return result
        }
        task.withLock { $0 = work }
    }

    /// The sender offered this transfer again on a new link.
    func offeredAgain(_ arrival: ResourceArrival) {
        receiving.offeredAgain(arrival)
    }
}

/// A signal to a resource's receiving task.
enum ReceiverSignal: Sendable {
    /// The sender offered it again on a new link.
    case resumed(ResourceArrival)
    case deadline(Int)
    case cancelled
}

/// The work behind an ``IncomingResource``: bytes into the partial file, hashed as they come,
/// checked, put in place; kept through link drops for the resume window.
final class ResourceReceiving: Sendable {
    let session: Session
    let key: ResourceRegistry.Key
    let reporter: ProgressReporter
    private let offer: Frame.ResourceOffer
    private let peer: PeerID
    private let file: PartialFile
    private let queue: FileQueue
    private let mailbox = Mailbox<ReceiverSignal>()
    private let hash = RunningDigest()

    private struct State {
        var arrival: ResourceArrival
        var outcome: Result<URL, MultipeerError>?
        var cancelled = false
    }

    private let state: Mutex<State>

    /// Received bytes are written in pieces of up to this many.
    static let batchBytes = 256 * 1024

    init(session: Session, arrival: ResourceArrival, file: PartialFile, queue: FileQueue) {
        self.session = session
        offer = arrival.offer
        peer = arrival.peer
        key = ResourceRegistry.Key(peer: arrival.peer.identity, transfer: arrival.offer.transfer)
        reporter = ProgressReporter(totalBytes: Int64(clamping: arrival.offer.size))
        self.file = file
        self.queue = queue
        state = Mutex(State(arrival: arrival))
    }

    private var name: String { offer.name }

    func cancel() {
        let arrival = state.withLock { state -> ResourceArrival? in
            guard state.outcome == nil, !state.cancelled else { return nil }
            state.cancelled = true
            return state.arrival
        }
        guard let arrival else { return }
        tell(.failed, "\(session.localPeer.displayName) cancelled it", on: arrival)
        arrival.stream.cancel()
        mailbox.post(.cancelled)
    }

    /// How `result` is told to a sender that offers the transfer again.
    static func ended(_ result: Result<URL, MultipeerError>, session: Session) -> EndedTransfer {
        switch result {
        case .success: EndedTransfer(saved: true, reason: nil)
        case .failure(let error): EndedTransfer(saved: false, reason: error.code == .cancelled ? "\(session.localPeer.displayName) cancelled it" : reason(of: error))
        }
    }

    /// Tells the sender of `arrival` how its transfer ended, and closes the stream it offered.
    static func tell(_ ended: EndedTransfer, on arrival: ResourceArrival, session: Session) {
        session.send(.resourceResult(transfer: arrival.offer.transfer, outcome: ended.saved ? .saved : .failed, reason: ended.reason), onLink: arrival.link)
        arrival.stream.cancel()
    }

    func offeredAgain(_ arrival: ResourceArrival) {
        let outcome = state.withLock { $0.outcome }
        switch outcome {
        case .some(let result):
            Self.tell(Self.ended(result, session: session), on: arrival, session: session)
        case nil:
            let same = arrival.offer.size == offer.size && arrival.offer.digest == offer.digest && arrival.offer.name == offer.name
            guard same else {
                session.send(.resourceAnswer(transfer: offer.transfer, verdict: .decline, offset: 0, reason: "it does not match the transfer it resumes"), onLink: arrival.link)
                arrival.stream.cancel()
                return
            }
            mailbox.post(.resumed(arrival))
        }
    }

    private func tell(_ outcome: Frame.ResourceOutcome, _ reason: String?, on arrival: ResourceArrival) {
        session.send(.resourceResult(transfer: offer.transfer, outcome: outcome, reason: reason), onLink: arrival.link)
    }

    /// How a stream of the transfer ended.
    private enum StreamEnd: Error {
        case finished
        case interrupted
        case failed(MultipeerError, tellSender: Bool)
    }

    func run() async -> Result<URL, MultipeerError> {
        var received: UInt64 = 0
        var waits = 0
        var arrival = state.withLock { $0.arrival }
        while true {
            session.send(.resourceAnswer(transfer: offer.transfer, verdict: .accept, offset: received, reason: nil), onLink: arrival.link)
            reporter.report(Int64(received))
            let end = await receive(arrival.stream, received: &received)
            switch end {
            case .finished:
                let result = await check(received)
                if case .failure(let error) = result { tell(.failed, Self.reason(of: error), on: arrival) }
                if case .success = result { tell(.saved, nil, on: arrival) }
                return settle(result)
            case .failed(let error, let tellSender):
                if tellSender {
                    tell(.failed, error.code == .cancelled ? "\(peer.displayName) cancelled it" : Self.reason(of: error), on: arrival)
                    arrival.stream.cancel()
                }
                file.discard()
                return settle(.failure(error))
            case .interrupted:
                waits += 1
                guard let next = await awaitResumption(number: waits) else {
                    file.discard()
                    let error: MultipeerError = state.withLock { $0.cancelled }
                        ? .resourceCancelled(name, by: "this side")
                        : .resourceInterrupted(name, peer: peer.displayName, after: session.configuration.resourceResumeWindow)
                    return settle(.failure(error))
                }
                arrival = next
                state.withLock { $0.arrival = next }
            }
        }
    }

    private func settle(_ result: Result<URL, MultipeerError>) -> Result<URL, MultipeerError> {
        state.withLock { $0.outcome = result }
        return result
    }

    /// The reason a RESOURCE_RESULT gives: the error's sentence after "… was not saved: ".
    static func reason(of error: MultipeerError) -> String {
        guard let range = error.message.range(of: " was not saved: ") else { return error.message }
        return String(error.message[range.upperBound...].dropLast(error.message.hasSuffix(".") ? 1 : 0))
    }

    /// Reads `stream` into the file from `received` on, counting what is written and hashed.
    private func receive(_ stream: IncomingStream, received: inout UInt64) async -> StreamEnd {
        var batch = Data()
        var end = StreamEnd.finished
        do {
            for try await chunk in stream.chunks {
                if received + UInt64(batch.count) + UInt64(chunk.count) > offer.size {
                    end = .failed(.resourceFailed(name, "more bytes arrived than the \(offer.size) offered"), tellSender: true)
                    break
                }
                batch.append(chunk)
                if batch.count >= Self.batchBytes {
                    try await write(&batch, received: &received)
                }
            }
        } catch {
            switch error.code {
            case .streamInterrupted: end = .interrupted
            case .streamReset:
                // The sender's cancel is answered, so that it knows the partial file is gone.
                let here = state.withLock { $0.cancelled }
                end = .failed(.resourceCancelled(name, by: here ? "this side" : peer.displayName), tellSender: !here)
            default:
                end = .failed(error, tellSender: true)  // the file could not be written
            }
        }
        if case .failed = end { return end }
        do {
            try await write(&batch, received: &received)  // what came before the end is good
        } catch {
            return .failed(error, tellSender: true)
        }
        return end
    }

    private func write(_ batch: inout Data, received: inout UInt64) async throws(MultipeerError) {
        guard !batch.isEmpty else { return }
        let bytes = batch
        let offset = received
        let file = file
        let hash = hash
        try await queue.run { () throws(MultipeerError) in
            try file.write(bytes, at: offset)
            hash.update(bytes)
        }
        received += UInt64(bytes.count)
        batch = Data()
        reporter.report(Int64(received))
    }

    /// Checks the whole file against the offer and puts it in place.
    private func check(_ received: UInt64) async -> Result<URL, MultipeerError> {
        guard received == offer.size else {
            file.discard()
            return .failure(.resourceFailed(name, "it ended after \(received) of its \(offer.size) bytes"))
        }
        let digest = hash.finalize()
        guard digest == offer.digest else {
            file.discard()
            return .failure(.resourceFailed(name, "its SHA-256 does not match the offer's, so it was changed on the way"))
        }
        let file = file
        do throws(MultipeerError) {
            return .success(try await queue.run { () throws(MultipeerError) in try file.place() })
        } catch {
            file.discard()
            return .failure(error)
        }
    }

    /// Waits for the sender to offer the transfer again, at most the resume window; nil when
    /// it did not, or the transfer was cancelled meanwhile.
    private func awaitResumption(number: Int) async -> ResourceArrival? {
        let window = session.configuration.resourceResumeWindow
        let timer = mailbox.post(.deadline(number), after: window, on: session.clock)
        defer { timer.cancel() }
        while true {
            if state.withLock({ $0.cancelled }) { return nil }
            switch await mailbox.next(orOnCancel: .cancelled) {
            case .resumed(let arrival): return arrival
            case .deadline(number), .cancelled: return nil
            case .deadline: continue
            }
        }
    }
}

/// The SHA-256 of the bytes received so far, updated on the file queue and read once at the end.
final class RunningDigest: Sendable {
    private let hash = Mutex(SHA256())

    func update(_ bytes: Data) {
        hash.withLock { $0.update(data: bytes) }
    }

    func finalize() -> [UInt8] {
        hash.withLock { Array($0.finalize()) }
    }
}
