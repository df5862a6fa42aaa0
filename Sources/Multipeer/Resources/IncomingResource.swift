import Foundation
import Synchronization

/// A file arriving from a peer, accepted with ``ResourceOffer/accept(into:keepingIn:)`` and posted as
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

    /// The bytes kept from before a restart (``ResourceOffer/accept(into:keepingIn:)``) and
    /// checked against their chunks' SHA-256: the transfer goes on after them unless the
    /// sender finds they do not match its file.
    public let keptBytes: Int64
    /// A sentence about something kept from before that could not be used (a damaged record,
    /// a partial file gone or changed), if any.
    public let keptNote: String?
    /// Whether the same file, saved before from the same peer, is unchanged: it ends saved
    /// without its bytes (at once; when its SHA-256 follows the bytes, once the sender found by
    /// the chunks' SHA-256 that its file is that one, else its bytes arrive as a new file's).
    public let savedBefore: Bool

    private let receiving: ResourceReceiving
    private let task = Mutex<Task<Result<URL, MultipeerError>, Never>?>(nil)

    init(session: Session, arrival: ResourceArrival, start: ResourceStart, queue: FileQueue) {
        peer = arrival.peer
        name = arrival.offer.name
        totalBytes = Int64(clamping: arrival.offer.size)
        keptBytes = Int64(clamping: start.saved == nil ? start.digests.count : 0)
        keptNote = start.note
        savedBefore = start.saved != nil
        receiving = ResourceReceiving(session: session, arrival: arrival, start: start, queue: queue)
    }

    /// The bytes of the file that arrived in this program for the transfer, on every link.
    public var arrivedBytes: Int64 { receiving.counts.withLock { $0.arrived } }

    /// The bytes this program had received and asked for again: all it held when the sender
    /// found they did not match its file.
    public var resentBytes: Int64 { receiving.counts.withLock { $0.resent } }

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

    /// Stops receiving and keeps what arrived, as a program that is killed does: the sender is
    /// told the file was not saved and that what arrived is kept, and, when the file was
    /// accepted with a ``ResumeStore``, the partial file and its record stay, so that the same
    /// file offered again (by the sender's next send, to this program run again) goes on from
    /// them. The transfer ends with ``MultipeerError/Code/cancelled``. Without a store it is
    /// ``cancel()``. Returns whether what arrived is kept: false without a store, or when the
    /// transfer was not under way (nothing happens then).
    @discardableResult
    public func stopKeeping() -> Bool {
        receiving.stopKeeping()
    }

    /// Stops waiting for a sender whose link dropped, as when the resume window passes: the
    /// transfer ends with ``MultipeerError/Code/resourceInterrupted``, and what arrived is kept
    /// for a restart when it was accepted with a ``ResumeStore`` (so that the same file offered
    /// again, such as by a sender that restarted, goes on from it). Nothing happens to a
    /// transfer that is not waiting.
    public func letGo() {
        receiving.letGo()
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

    /// Whether `arrival`, a new transfer of the same peer, is this one offered again by a
    /// sender that restarted while this one waits for it.
    func isWaiting(for arrival: ResourceArrival) -> Bool {
        receiving.isWaiting(for: arrival)
    }

    /// Goes on with `arrival` (``isWaiting(for:)``): its transfer id is this one's from now on.
    /// Returns the key it had.
    func adopt(_ arrival: ResourceArrival) -> ResourceRegistry.Key? {
        receiving.adopt(arrival)
    }
}
