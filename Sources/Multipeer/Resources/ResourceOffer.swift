import Foundation
import SafeText
import Synchronization

/// A file a peer offers, posted as ``EventName/resourceOffered``: its name, size and (from an
/// earlier peer) SHA-256.
/// Answer it once, with ``accept(into:keepingIn:)`` or ``decline(reason:)``; an offer let go of without
/// an answer is declined.
public final class ResourceOffer: Sendable {
    /// The peer offering it.
    public let peer: PeerID
    /// Its name: a plain file name (``ResourceName``); or, sent inside a folder on a link with
    /// ``WireProtocol/Feature/folders``, a relative path of such names (``ResourcePath``),
    /// never absolute and never leading out of the directory it is accepted into.
    public let name: String

    /// Whether it was sent inside a folder: its name is a path (``ResourcePath``).
    public var isInFolder: Bool { name.contains("/") }
    /// Its size in bytes, as the sender states it (checked as the bytes arrive).
    public let size: Int64
    /// The SHA-256 of its bytes in lowercase hex, as the sender states it in the offer; nil
    /// when it follows the bytes (``WireProtocol/Feature/digestAfterBytes``: the sender did not
    /// read the whole file first). Either way it is checked before the file is put in place.
    public let sha256: String?

    private let session: Session
    private let arrival: ResourceArrival
    private let answered = Mutex(false)

    init(session: Session, arrival: ResourceArrival) {
        self.session = session
        self.arrival = arrival
        peer = arrival.peer
        name = arrival.offer.name
        size = Int64(clamping: arrival.offer.size)
        sha256 = arrival.digestFollows ? nil : Hex.encode(arrival.offer.digest)
    }

    deinit {
        if !answered.withLock({ $0 }) { refuse(reason: "nobody took the offer") }
    }

    /// Accepts the file into `directory`: its bytes go to a hidden partial file there (`0600`),
    /// which becomes `directory/name` once size and SHA-256 match the sender's (a path's folders are
    /// made under `directory`, never following a symbolic link) (`name (2)` and
    /// so on when that name is taken: no file is ever overwritten). The session posts
    /// ``EventName/resourceStarted`` with the returned handle, and
    /// ``EventName/resourceFinished`` at the end.
    ///
    /// With a `store`, what arrives is kept there too (a SHA-256 per chunk), so that the
    /// transfer goes on after either program restarts: when the same peer offers the same file
    /// (name, size, SHA-256; name and size when the SHA-256 follows the bytes) into the same
    /// directory again, what the partial file kept from before holds is checked against its
    /// chunks' hashes, and the sender checks them against its own file before it skips them
    /// (``IncomingResource/keptBytes``). A file saved before and unchanged since is answered
    /// saved without its bytes (at once; or, when the SHA-256 follows the bytes, once the
    /// sender found by the chunks' SHA-256 that its file is the same). A transfer that does
    /// not come back within the resume window keeps its partial file for the store's
    /// ``ResumeStore/maximumAge``.
    ///
    /// - Throws: ``MultipeerError/Code/resourceFailed`` when the partial file cannot be made
    ///   in `directory` (the offer is then declined with that reason);
    ///   ``MultipeerError/Code/cancelled`` when the offer was answered already.
    public func accept(into directory: URL, keepingIn store: ResumeStore? = nil) async throws(MultipeerError) -> IncomingResource {
        try claim()
        let arrival = arrival
        let files = session.resourceFiles
        let queue = FileQueue(files, label: "multipeer.resource.receive")
        let start: ResourceStart
        do throws(MultipeerError) {
            start = try await queue.run { () throws(MultipeerError) in
                try ResourceStart.open(
                    arrival.offer, from: arrival.peer.identity, in: directory, store: store, digestFollows: arrival.digestFollows, rootFollows: arrival.rootFollows,
                    files: files)
            }
        } catch {
            refuse(reason: ResourceReceiving.reason(of: error))
            throw error
        }
        let resource = IncomingResource(session: session, arrival: arrival, start: start, queue: queue)
        resource.start()
        return resource
    }

    /// Declines the file; the sender's transfer ends with ``MultipeerError/Code/resourceDeclined``
    /// and `reason`. Nothing happens when the offer was answered already.
    public func decline(reason: String? = nil) {
        guard (try? claim()) != nil else { return }
        refuse(reason: reason)
    }

    private func claim() throws(MultipeerError) {
        let first = answered.withLock { answered in
            defer { answered = true }
            return !answered
        }
        guard first else { throw MultipeerError(.cancelled, "The offer of \(TerminalText.quoted(name)) was answered already.") }
    }

    private func refuse(reason: String?) {
        session.send(.resourceAnswer(transfer: arrival.offer.transfer, verdict: .decline, offset: 0, reason: reason), onLink: arrival.link)
        arrival.stream.cancel()
    }
}
