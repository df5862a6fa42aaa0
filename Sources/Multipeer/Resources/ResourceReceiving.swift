import Foundation
import Synchronization

/// A signal to a resource's receiving task.
enum ReceiverSignal: Sendable {
    /// The sender offered it again on a new link.
    case resumed(ResourceArrival)
    /// Stop waiting for the sender (``IncomingResource/letGo()``).
    case letGo
    case deadline(Int)
    case cancelled
}

/// The work behind an ``IncomingResource``: bytes into the partial file, hashed as they come,
/// checked, put in place; kept through link drops for the resume window.
final class ResourceReceiving: Sendable {
    let session: Session
    let reporter: ProgressReporter
    let offer: Frame.ResourceOffer
    private let peer: PeerID
    let file: (any PartialResourceFile)?
    let saved: URL?
    let keeping: ResourceKeeping?
    let queue: FileQueue
    private let mailbox = Mailbox<ReceiverSignal>()
    let digests: Mutex<ChunkDigests>
    /// Whether the file's SHA-256 follows its bytes on the stream (not in the offer).
    private let digestFollows: Bool

    struct State {
        var arrival: ResourceArrival
        var outcome: Result<URL, MultipeerError>?
        var cancelled = false
        /// The transfer id: the offer's, or that of a restarted sender's offer it went on with.
        var transfer: [UInt8]
        /// Waiting for the sender to offer it again.
        var waiting = false
        /// The file saved before (``saved``) awaits the sender's word that its file is the
        /// same (when the SHA-256 follows the bytes): until the sender goes on from 0.
        var confirmingSaved = false
        /// Stopped by this side keeping what arrived (``stopKeeping()``).
        var keepsOnStop = false
    }

    let state: Mutex<State>

    /// What ``IncomingResource/arrivedBytes`` and ``IncomingResource/resentBytes`` count.
    struct Counts {
        var arrived: Int64 = 0
        var resent: Int64 = 0
    }

    let counts = Mutex(Counts())

    /// The key the transfer is registered under.
    var key: ResourceRegistry.Key {
        ResourceRegistry.Key(peer: peer.identity, transfer: state.withLock { $0.transfer })
    }

    private var transfer: [UInt8] { state.withLock { $0.transfer } }

    /// Received bytes are written in pieces of up to this many.
    static let batchBytes = 256 * 1024

    init(session: Session, arrival: ResourceArrival, start: ResourceStart, queue: FileQueue) {
        self.session = session
        offer = arrival.offer
        peer = arrival.peer
        reporter = ProgressReporter(totalBytes: Int64(clamping: arrival.offer.size))
        file = start.file
        saved = start.saved
        keeping = start.keeping
        digests = Mutex(start.digests)
        digestFollows = arrival.digestFollows
        self.queue = queue
        state = Mutex(State(arrival: arrival, transfer: arrival.offer.transfer, confirmingSaved: start.saved != nil && arrival.digestFollows))
    }

    func letGo() {
        let waiting = state.withLock { state in
            defer { state.waiting = false }
            return state.waiting && state.outcome == nil && !state.cancelled
        }
        if waiting { mailbox.post(.letGo) }
    }

    func isWaiting(for arrival: ResourceArrival) -> Bool {
        let same = arrival.peer.identity == peer.identity && arrival.offer.size == offer.size && arrival.offer.digest == offer.digest
            && arrival.offer.name.utf8.elementsEqual(offer.name.utf8)
        return same && state.withLock { $0.waiting && $0.outcome == nil && !$0.cancelled }
    }

    func adopt(_ arrival: ResourceArrival) -> ResourceRegistry.Key? {
        let old = state.withLock { state -> [UInt8]? in
            guard state.waiting, state.outcome == nil, !state.cancelled else { return nil }
            defer { state.transfer = arrival.offer.transfer }
            return state.transfer
        }
        guard let old else { return nil }
        mailbox.post(.resumed(arrival))
        return ResourceRegistry.Key(peer: peer.identity, transfer: old)
    }

    /// Removes the partial file and the record: nothing of the transfer is kept.
    func drop() {
        file?.discard()
        keeping?.remove()
    }

    var name: String { offer.name }

    func cancel() {
        stop(keeping: false)
    }

    func stopKeeping() -> Bool {
        stop(keeping: keeping != nil) && keeping != nil
    }

    /// Stops the transfer; `keeping`: what arrived stays for a later offer of the same file.
    @discardableResult
    private func stop(keeping: Bool) -> Bool {
        let arrival = state.withLock { state -> ResourceArrival? in
            guard state.outcome == nil, !state.cancelled else { return nil }
            state.cancelled = true
            state.keepsOnStop = keeping
            return state.arrival
        }
        guard let arrival else { return false }
        let me = session.localPeer.displayName
        tell(.failed, keeping ? "\(me) stopped receiving; what arrived is kept, and sending it again goes on from there" : "\(me) cancelled it", on: arrival)
        arrival.stream.cancel()
        mailbox.post(.cancelled)
        return true
    }

    func offeredAgain(_ arrival: ResourceArrival) {
        let outcome = state.withLock { $0.outcome }
        switch outcome {
        case .some(let result):
            Self.tell(Self.ended(result, session: session), on: arrival, session: session)
        case nil:
            let same = arrival.offer.size == offer.size && arrival.offer.digest == offer.digest && arrival.offer.name == offer.name
            guard same else {
                session.send(.resourceAnswer(transfer: transfer, verdict: .decline, offset: 0, reason: "it does not match the transfer it resumes"), onLink: arrival.link)
                arrival.stream.cancel()
                return
            }
            mailbox.post(.resumed(arrival))
        }
    }

    private func tell(_ outcome: Frame.ResourceOutcome, _ reason: String?, on arrival: ResourceArrival) {
        session.send(.resourceResult(transfer: transfer, outcome: outcome, reason: reason), onLink: arrival.link)
    }

    /// How a stream of the transfer ended.
    private enum StreamEnd: Error {
        case finished
        case interrupted
        /// This side stopped, keeping what arrived.
        case stopped
        case failed(MultipeerError, tellSender: Bool)
    }

    func run() async -> Result<URL, MultipeerError> {
        var arrival = state.withLock { $0.arrival }
        if let saved, !digestFollows {
            tell(.saved, nil, on: arrival)
            arrival.stream.cancel()
            reporter.report(Int64(clamping: offer.size))
            return settle(.success(saved))
        }
        var received = digests.withLock { $0.count }
        var waits = 0
        while true {
            let header = answer(on: arrival, received: received)
            reporter.report(Int64(received))
            var digest = Data()
            var tail = Data()
            let end = await receive(arrival.stream, received: &received, header: header, digest: &digest, tail: &tail)
            switch end {
            case .finished:
                let result = await finish(tail, received: received, against: digestFollows ? Array(digest) : offer.digest)
                if case .failure(let error) = result { tell(.failed, Self.reason(of: error), on: arrival) }
                if case .success = result { tell(.saved, nil, on: arrival) }
                return settle(result)
            case .stopped:
                return settle(keptOnStop())
            case .failed(let error, let tellSender):
                if tellSender {
                    tell(.failed, error.code == .cancelled ? "\(peer.displayName) cancelled it" : Self.reason(of: error), on: arrival)
                    arrival.stream.cancel()
                }
                drop()
                return settle(.failure(error))
            case .interrupted:
                waits += 1
                state.withLock { $0.waiting = true }
                let next = await awaitResumption(number: waits)
                state.withLock { $0.waiting = false }
                guard let next else {
                    let (cancelled, keepsOnStop) = state.withLock { ($0.cancelled, $0.keepsOnStop) }
                    if keepsOnStop { return settle(keptOnStop()) }
                    if cancelled || keeping == nil {
                        drop()
                    } else {
                        file?.keep()
                        keeping?.keep()
                    }
                    let window = session.configuration.resourceResumeWindow
                    let error: MultipeerError = cancelled
                        ? .resourceCancelled(name, by: "this side")
                        : keeping.map { .resourceInterruptedKept(name, peer: peer.displayName, after: window, keptFor: $0.store.maximumAge) }
                            ?? .resourceInterrupted(name, peer: peer.displayName, after: window)
                    return settle(.failure(error))
                }
                arrival = next
                state.withLock { $0.arrival = next }
            }
        }
    }

    /// Accepts the bytes from what is held on: on a link with
    /// ``WireProtocol/Feature/restartResume``, after saying what is held (RESOURCE_HELD: its
    /// chunks' SHA-256s) for the sender to check. Returns whether the stream then begins with
    /// the offset the sender goes on from.
    private func answer(on arrival: ResourceArrival, received: UInt64) -> Bool {
        let transfer = transfer
        let header = received > 0 && session.link(arrival.link, supports: WireProtocol.Feature.resources | WireProtocol.Feature.restartResume)
        if header {
            let claim = digests.withLock { $0.claim }
            session.send(.resourceHeld(.init(transfer: transfer, chunkBytes: UInt32(ChunkDigests.chunkBytes), chunks: claim.pieces, root: claim.root)), onLink: arrival.link)
        }
        session.send(.resourceAnswer(transfer: transfer, verdict: .accept, offset: received, reason: nil), onLink: arrival.link)
        return header
    }

    /// Keeps the partial file and its record: this side stopped (``stopKeeping()``).
    private func keptOnStop() -> Result<URL, MultipeerError> {
        file?.keep()
        keeping?.keep()
        return .failure(.resourceStoppedKept(name, keptFor: keeping?.store.maximumAge ?? .zero))
    }

    private func settle(_ result: Result<URL, MultipeerError>) -> Result<URL, MultipeerError> {
        state.withLock { $0.outcome = result }
        return result
    }

    /// Reads `stream` into the file from `received` on, counting what is written and hashed;
    /// with `header`, the stream's first 8 bytes are where the sender goes on from: `received`,
    /// or 0 when what is held did not match its file. When the SHA-256 follows the bytes, the
    /// 32 after the file's last byte go to `digest`. When the stream finished, the bytes not
    /// written yet are left in `tail`, for ``finish(_:received:against:)`` to write with the check.
    private func receive(_ stream: IncomingStream, received: inout UInt64, header: Bool, digest: inout Data, tail: inout Data) async -> StreamEnd {
        var batch = Data()
        var end = StreamEnd.finished
        var from = header ? Data() : nil
        do {
            for try await piece in stream.chunks {
                var chunk = piece
                if var start = from {
                    let take = min(8 - start.count, chunk.count)
                    start.append(chunk.prefix(take))
                    chunk = Data(chunk.dropFirst(take))
                    from = start
                    guard start.count == 8 else { continue }
                    from = nil
                    let offset = start.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                    if offset == 0, received > 0 {
                        // What is held does not match the sender's file: it starts over.
                        counts.withLock { $0.resent += Int64(received) }
                        digests.withLock { $0 = ChunkDigests(size: offer.size, hashingWhole: $0.hashesWhole) }
                        received = 0
                        keeping?.record.truncate(toChunks: 0)
                        state.withLock { $0.confirmingSaved = false }
                    } else if offset != received {
                        end = .failed(.resourceFailed(name, "the sender went on from byte \(offset), not from the \(received) held"), tellSender: true)
                        break
                    }
                }
                if digestFollows, case let room = Int(offer.size - received) - batch.count, chunk.count > room {
                    digest.append(chunk.dropFirst(room))
                    chunk = chunk.prefix(room)  // a slice of the same bytes, not a copy
                    guard digest.count <= Frame.ResourceOffer.digestBytes else {
                        end = .failed(.resourceFailed(name, "more bytes arrived than the \(offer.size) offered and their SHA-256"), tellSender: true)
                        break
                    }
                }
                if chunk.isEmpty { continue }
                counts.withLock { $0.arrived += Int64(chunk.count) }
                if received + UInt64(batch.count) + UInt64(chunk.count) > offer.size {
                    end = .failed(.resourceFailed(name, "more bytes arrived than the \(offer.size) offered"), tellSender: true)
                    break
                }
                if batch.isEmpty {
                    batch = chunk  // a small file's bytes often come in one piece: not copied
                } else {
                    batch.append(chunk)
                }
                if batch.count >= Self.batchBytes {
                    try await write(&batch, received: &received)
                }
            }
        } catch {
            switch error.code {
            case .streamInterrupted: end = .interrupted
            case .streamReset:
                // The sender's cancel is answered, so that it knows the partial file is gone.
                let (here, keeps) = state.withLock { ($0.cancelled, $0.keepsOnStop) }
                end = keeps ? .stopped : .failed(.resourceCancelled(name, by: here ? "this side" : peer.displayName), tellSender: !here)
            default:
                end = .failed(error, tellSender: true)  // the file could not be written
            }
        }
        if case .failed = end { return end }
        if from != nil, case .finished = end {
            return .failed(.resourceFailed(name, "its stream ended before the sender said where it goes on from"), tellSender: true)
        }
        if digestFollows, received + UInt64(batch.count) == offer.size, digest.count < Frame.ResourceOffer.digestBytes, case .finished = end {
            return .failed(.resourceFailed(name, "its stream ended before the SHA-256 that follows its bytes"), tellSender: true)
        }
        if case .finished = end, file != nil {
            tail = batch
            return end
        }
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
        guard let file else { return }
        let keeping = keeping
        // A file of more than one batch starts to go to the disk as it arrives.
        let writingBack = offer.size > UInt64(Self.batchBytes)
        try await queue.run { () throws(MultipeerError) in
            try file.write(bytes, at: offset, writingBack: writingBack)
            let completed = self.digests.withLock { $0.add(bytes) }
            keeping?.record.append(completed)
        }
        received += UInt64(bytes.count)
        batch = Data()
        reporter.report(Int64(received))
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
            case .deadline(number), .cancelled, .letGo: return nil
            case .deadline: continue
            }
        }
    }
}
