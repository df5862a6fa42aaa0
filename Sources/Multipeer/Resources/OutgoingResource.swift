import Foundation
import Synchronization

/// A file on its way to a peer, from ``Session/sendResource(at:named:to:)``.
///
/// It offers the file, sends it once the receiver accepts, and ends when the receiver has
/// checked and saved it. To a peer with ``WireProtocol/Feature/digestAfterBytes`` the file's
/// SHA-256 is taken as its bytes are sent and follows them; to an earlier peer it is taken
/// before the offer. When the link drops it waits for the peer to be
/// connected again and resumes from what the receiver holds. Letting go of the handle does not
/// stop the transfer; ``cancel()`` does.
public final class OutgoingResource: Sendable {
    /// The peer it goes to.
    public let peer: PeerID
    /// The name the receiver sees.
    public let name: String
    /// The file's size in bytes.
    public let totalBytes: Int64

    private let reporter: ProgressReporter
    private let sending: ResourceSending
    private let task: Task<Result<Void, MultipeerError>, Never>

    init(session: Session, file: any ResourceSource, name: String, peer: PeerID) {
        self.peer = peer
        self.name = name
        totalBytes = Int64(file.size)
        reporter = ProgressReporter(totalBytes: Int64(file.size))
        let sending = ResourceSending(session: session, file: file, name: name, peer: peer, reporter: reporter)
        self.sending = sending
        task = Task { await sending.run() }
    }

    /// The bytes the receiver holds so far.
    public var progress: ResourceProgress { reporter.current }

    /// The progress from now on, starting with the current one; the sequence ends with the
    /// transfer. Each call gives a sequence of its own.
    public var progressUpdates: AsyncStream<ResourceProgress> { reporter.updates() }

    /// The bytes of the file this program sent, on every link (what the receiver held from
    /// before is not sent).
    public var bytesSent: Int64 { sending.counts.withLock { $0.sent } }

    /// The bytes this program sent twice: those it had sent past where the receiver's answer
    /// had it go on after a link dropped (what was on its way, or held past the receiver's last
    /// whole chunk).
    public var resentBytes: Int64 { sending.counts.withLock { $0.resent } }

    /// How many times the bytes started going (once, and again after each link that dropped),
    /// and the offset they last started from: more than 0 when the receiver held part of the
    /// file (after a link dropped, or from before either program restarted).
    public var lastStart: (count: Int, offset: Int64) { sending.counts.withLock { ($0.starts, Int64($0.startedFrom)) } }

    /// Whether the receiver held part of the file that did not match it (checked by the
    /// chunks' SHA-256), so that the transfer started over.
    public var heldDidNotMatch: Bool { sending.counts.withLock { $0.mismatched } }

    /// Whether the receiver had the whole file already (saved before from this program's
    /// peer and unchanged, checked by its SHA-256), so that none of its bytes went.
    public var receiverHadIt: Bool { sending.counts.withLock { $0.hadIt } }

    /// Waits for the end: returns once the receiver saved the file.
    ///
    /// - Throws: ``MultipeerError/Code/resourceDeclined``; ``MultipeerError/Code/resourceFailed``
    ///   when the receiver could not save it; ``MultipeerError/Code/resourceInterrupted`` when
    ///   the link did not come back in time; ``MultipeerError/Code/resourceUnreadable`` when
    ///   the file could not be read or changed meanwhile; ``MultipeerError/Code/cancelled``.
    public func outcome() async throws(MultipeerError) {
        try await task.value.get()
    }

    /// Stops the transfer: the receiver removes what it has, and ``outcome()`` throws
    /// ``MultipeerError/Code/cancelled``.
    public func cancel() {
        sending.cancel()
    }
}

/// The work behind an ``OutgoingResource``: offer, answer, bytes, result — again after a drop.
final class ResourceSending: Sendable {
    private let session: Session
    private let file: any ResourceSource
    private let name: String
    private let peer: PeerID
    private let reporter: ProgressReporter
    private let key: ResourceRegistry.Key
    private let mailbox = Mailbox<SenderSignal>()
    private let queue: FileQueue
    /// The stream of the current offer, to reset at once on ``cancel()``.
    private let current = Mutex<OutgoingStream?>(nil)
    private let cancelled = Mutex(false)
    /// Whether an offer went out: the receiver may hold part of the file.
    private let offered = Mutex(false)

    /// What ``OutgoingResource/bytesSent`` and the others count.
    struct Counts {
        var sent: Int64 = 0
        var resent: Int64 = 0
        /// The furthest offset written on any link.
        var furthest: UInt64 = 0
        var mismatched = false
        var starts = 0
        var startedFrom: UInt64 = 0
        var hadIt = false
    }

    let counts = Mutex(Counts())
    /// The digest of the bytes read so far, when it follows them (its kind chosen by the link
    /// they go on: ``write(_:from:held:digestAfter:)``).
    private let running: Mutex<RunningDigest>

    /// The most bytes read from the file at once.
    static let blockBytes = 256 * 1024

    init(session: Session, file: any ResourceSource, name: String, peer: PeerID, reporter: ProgressReporter) {
        self.session = session
        self.file = file
        queue = FileQueue(session.resourceFiles, label: "multipeer.resource.send")
        self.name = name
        self.peer = peer
        self.reporter = reporter
        running = Mutex(RunningDigest(size: file.size, root: false))
        key = ResourceRegistry.Key(peer: peer.identity, transfer: Self.randomTransfer())
    }

    /// A new transfer id: ``Frame/ResourceOffer/transferBytes`` random bytes, taken eight at a
    /// time (a system call each: one a byte cost 16 a file).
    static func randomTransfer() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Frame.ResourceOffer.transferBytes + 7)
        while bytes.count < Frame.ResourceOffer.transferBytes {
            withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) }
        }
        return Array(bytes.prefix(Frame.ResourceOffer.transferBytes))
    }

    func cancel() {
        cancelled.withLock { $0 = true }
        current.withLock { $0 }?.cancel()
        mailbox.post(.cancelled)
    }

    private var cancelledHere: MultipeerError { .resourceCancelled(name, by: "this side") }

    func run() async -> Result<Void, MultipeerError> {
        session.resources.addSender(mailbox, for: key)
        let peer = peer
        let mailbox = mailbox
        let watch = session.events.observe(.stateChanged) { change in
            guard change.peer == peer else { return }
            if change.state == .connected { mailbox.post(.connected) }
            if change.state == .notConnected { mailbox.post(.disconnected) }
        }
        defer {
            watch.cancel()
            session.resources.removeSender(key)
            reporter.end()
        }
        do throws(MultipeerError) {
            let file = file
            let after = WireProtocol.Feature.resources | WireProtocol.Feature.restartResume | WireProtocol.Feature.digestAfterBytes
            // To an earlier peer the SHA-256 goes in the offer: the whole file is read first.
            let digest = session.supports(after, with: peer)
                ? Frame.ResourceOffer.digestAfterBytes : try await queue.run { () throws(MultipeerError) in try file.digest() }
            try await deliver(Frame.ResourceOffer(streamID: 1, transfer: key.transfer, size: file.size, digest: digest, name: name))
            return .success(())
        } catch {
            if cancelled.withLock({ $0 }) { await awaitAcknowledgement() }
            return .failure(error)
        }
    }

    /// After a cancel, waits a little (at most 5 s) for the receiver to say it dropped the
    /// transfer, so that a program that ends right after its cancel does not leave the
    /// receiver taking it for a dropped link (and keeping the partial file for the resume
    /// window): the reset may be queued behind stream data on a slow link.
    private func awaitAcknowledgement() async {
        guard offered.withLock({ $0 }), session.connectedPeers.contains(peer) else { return }
        let timer = mailbox.post(.deadline(0), after: .seconds(5), on: session.clock)
        defer { timer.cancel() }
        while true {
            switch await mailbox.next(orOnCancel: .cancelled) {
            case .result, .disconnected, .deadline(0): return
            default: continue
            }
        }
    }

    /// What the receiver said to an offer.
    private enum Answer {
        /// From `offset`; `held`: what the receiver said it holds before (to check).
        case accepted(from: UInt64, held: Frame.ResourceHeld?)
        case alreadySaved
        case linkLost
    }

    /// Offers the file until it is saved, again on every new link.
    private func deliver(_ offer: Frame.ResourceOffer) async throws(MultipeerError) {
        var waits = 0
        while true {
            if cancelled.withLock({ $0 }) { throw cancelledHere }
            if !session.connectedPeers.contains(peer) {
                waits += 1
                try await awaitReconnection(number: waits)
            }
            while let signal = mailbox.poll() {  // what the last link said is over
                if case .cancelled = signal { throw cancelledHere }
            }
            let stream: OutgoingStream
            do {
                stream = try session.openResourceStream(offer, to: peer)
            } catch where error.code == .peerNotConnected {
                continue  // it dropped meanwhile
            }
            current.withLock { $0 = stream }
            offered.withLock { $0 = true }
            if cancelled.withLock({ $0 }) { stream.cancel() }
            defer { current.withLock { $0 = nil } }
            switch try await answer(to: stream) {
            case .alreadySaved:
                counts.withLock { $0.hadIt = $0.sent == 0 }
                reporter.report(Int64(offer.size))
                return
            case .linkLost:
                continue
            case .accepted(let offset, let held):
                guard try await write(stream, from: offset, held: held, digestAfter: offer.digestFollows) else { continue }
                stream.finish()
                if try await result() { return }
            }
        }
    }

    /// Waits for the peer to be connected again, at most the resume window.
    private func awaitReconnection(number: Int) async throws(MultipeerError) {
        let window = session.configuration.resourceResumeWindow
        let timer = mailbox.post(.deadline(number), after: window, on: session.clock)
        defer { timer.cancel() }
        while !session.connectedPeers.contains(peer) {
            if session.isClosed { throw .sessionClosed }
            switch await mailbox.next(orOnCancel: .cancelled) {
            case .deadline(number): throw .resourceInterrupted(name, peer: peer.displayName, after: window)
            case .cancelled: throw cancelledHere
            default: continue
            }
        }
    }

    private func answer(to stream: OutgoingStream) async throws(MultipeerError) -> Answer {
        var held: Frame.ResourceHeld?
        while true {
            switch await mailbox.next(orOnCancel: .cancelled) {
            case .held(let claim):
                held = claim
            case .answer(.accept, let offset, _):
                guard offset <= file.size else {
                    stream.cancel()
                    throw .resourceFailed(name, "\(peer.displayName) asked for bytes past its end")
                }
                return .accepted(from: offset, held: held)
            case .answer(.decline, _, let reason):
                throw .resourceDeclined(name, by: peer.displayName, reason: reason)
            case .result(.saved, _):
                return .alreadySaved
            case .result(.failed, let reason):
                throw .resourceFailed(name, reason ?? "\(peer.displayName) gave no reason")
            case .disconnected:
                return .linkLost
            case .cancelled:
                stream.cancel()
                throw cancelledHere
            case .connected, .deadline:
                continue
            }
        }
    }

    /// Writes the file from `offset` to its end; false when the link closed on the way. After
    /// a RESOURCE_HELD (`held`), the receiver's chunks are checked against the file first, and
    /// the stream begins with where it goes on from: `offset` when they match, else 0. With
    /// `digestAfter`, the file's digest (taken as it is read) follows its last byte: its chunk
    /// root on a link with ``WireProtocol/Feature/chunkRootAfterBytes``, else its SHA-256.
    private func write(_ stream: OutgoingStream, from offset: UInt64, held: Frame.ResourceHeld?, digestAfter: Bool) async throws(MultipeerError) -> Bool {
        var offset = offset
        let file = file
        if digestAfter {
            // The link says which digest follows; a receiver restarted as another release may
            // say another than the last link did: that one is taken from the file's start.
            let root = session.supports(WireProtocol.Feature.chunkRootAfterBytes, with: peer)
            running.withLock { if $0.isRoot != root { $0 = RunningDigest(size: file.size, root: root) } }
        }
        if let held {
            let claimed = offset
            let matches = try await queue.run { () throws(MultipeerError) in
                try file.holds(held, upTo: claimed, each: { block, at in if digestAfter { self.running.withLock { $0.add(block, at: at) } } })
            }
            if !matches {
                offset = 0
                counts.withLock { $0.mismatched = true }
            } else if claimed == file.size {
                counts.withLock { $0.hadIt = $0.sent == 0 }
            }
            var start = Data(count: 8)
            for index in 0..<8 { start[index] = UInt8(truncatingIfNeeded: offset >> (56 - 8 * UInt64(index))) }
            guard try await send(start, on: stream) else { return false }
        }
        counts.withLock { counts in
            counts.resent += Int64(counts.furthest - min(counts.furthest, offset))
            counts.starts += 1
            counts.startedFrom = offset
        }
        reporter.report(Int64(offset))
        if digestAfter { try await hashGap(upTo: offset) }
        var checked = false
        while offset < file.size {
            let start = offset
            let last = start + UInt64(Self.blockBytes) >= file.size
            let (block, changed) = try await queue.run { () throws(MultipeerError) -> (Data, MultipeerError?) in
                let block = try file.read(at: start, count: Self.blockBytes)
                if digestAfter { self.running.withLock { $0.add(block, at: start) } }
                // With the last block's read, in the same job: the file did not change while it was read.
                return (block, last ? file.change() : nil)
            }
            if let changed {
                stream.cancel()
                throw changed
            }
            checked = last
            guard try await send(block, on: stream) else { return false }
            offset += UInt64(block.count)
            counts.withLock { counts in
                counts.sent += Int64(block.count)
                counts.furthest = max(counts.furthest, offset)
            }
            reporter.report(Int64(offset))
        }
        do throws(MultipeerError) {
            if !checked { try await queue.run { () throws(MultipeerError) in try file.checkUnchanged() } }
        } catch {
            stream.cancel()
            throw error
        }
        return digestAfter ? try await send(Data(self.running.withLock { $0.digest }), on: stream) : true
    }

    /// Writes `data` on `stream`; false when the link closed on the way.
    private func send(_ data: Data, on stream: OutgoingStream) async throws(MultipeerError) -> Bool {
        do {
            try await stream.write(data)
            return true
        } catch {
            switch error.code {
            case .streamInterrupted: return false
            case .streamReset: throw refusalOrReset()
            default: throw cancelled.withLock({ $0 }) ? cancelledHere : error
            }
        }
    }

    /// Hashes the bytes before `offset` that were not read yet (those the receiver held from
    /// before this program started, when it did not say what it holds), so that the SHA-256
    /// that follows the bytes is the whole file's.
    private func hashGap(upTo offset: UInt64) async throws(MultipeerError) {
        let file = file
        while case let from = self.running.withLock({ $0.hashedUpTo }), from < offset {
            try await queue.run { () throws(MultipeerError) in
                let block = try file.read(at: from, count: Int(min(UInt64(Self.blockBytes), offset - from)))
                self.running.withLock { $0.add(block, at: from) }
            }
        }
    }

    /// Why the receiver reset the stream: the reason it sent first, else that it cancelled.
    private func refusalOrReset() -> MultipeerError {
        while let signal = mailbox.poll() {
            if case .result(.failed, let reason) = signal { return .resourceFailed(name, reason ?? "\(peer.displayName) gave no reason") }
        }
        return .resourceCancelled(name, by: peer.displayName)
    }

    /// The receiver's verdict once every byte went: true when it saved the file, false when the
    /// link closed first (the next offer then finds out).
    private func result() async throws(MultipeerError) -> Bool {
        while true {
            switch await mailbox.next(orOnCancel: .cancelled) {
            case .result(.saved, _): return true
            case .result(.failed, let reason): throw .resourceFailed(name, reason ?? "\(peer.displayName) gave no reason")
            case .disconnected: return false
            case .cancelled: throw cancelledHere
            case .answer, .held, .connected, .deadline: continue
            }
        }
    }
}
