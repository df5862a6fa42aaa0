import Foundation
import Synchronization

/// The writing end of a byte stream this side opened with ``Session/openStream(named:to:)``.
///
/// Bytes arrive at the peer in order, as an ``IncomingStream``. A write waits while the reader
/// has granted no credit (it has not read what it was sent: at most
/// ``SessionConfiguration/streamWindow`` bytes of a stream are ever unread) or while the link
/// is backlogged, so a writer never runs ahead of its reader and never floods the link; the
/// session's messages and other streams go on meanwhile. Write from one task at a time, then
/// ``finish()``; ``cancel()`` gives up at any moment, and a stream let go of without either is
/// cancelled.
public final class OutgoingStream: Sendable {
    /// The peer the stream goes to.
    public let peer: PeerID
    /// The stream's name, as the peer sees it.
    public var name: String { core.name }

    let core: OutgoingStreamCore
    private let session: Session
    private let link: ObjectIdentifier

    init(session: Session, link: ObjectIdentifier, peer: PeerID, core: OutgoingStreamCore) {
        self.session = session
        self.link = link
        self.peer = peer
        self.core = core
    }

    deinit {
        session.endStream(core, link: link, end: .reset, reason: "cancelled by the writer")
    }

    /// Sends `data`, in pieces of at most ``SessionConfiguration/streamChunkLength`` bytes;
    /// returns once the last piece is queued on the link. The pieces go as the reader grants
    /// credit, sent by the link's own thread as the credit arrives, so a writer that keeps its
    /// reader busy is woken once a write, not once a piece; `data` is not copied until it is
    /// framed for the link.
    ///
    /// - Throws: ``MultipeerError/Code/streamReset`` when the reader reset the stream,
    ///   ``MultipeerError/Code/streamInterrupted`` when the link closed,
    ///   ``MultipeerError/Code/cancelled`` after this side's ``finish()`` or ``cancel()``.
    public func write(_ data: Data) async throws(MultipeerError) {
        try await session.writeStream(data, to: core, link: link)
    }

    /// Ends the stream: the reader's sequence ends after the bytes written so far. Call it
    /// once the last ``write(_:)`` has returned; nothing is sent after it.
    public func finish() {
        session.endStream(core, link: link, end: .finished, reason: nil)
    }

    /// Gives up on the stream: the reader's sequence throws ``MultipeerError/Code/streamReset``
    /// (after the bytes that reached it), and a write under way here throws
    /// ``MultipeerError/Code/cancelled``.
    public func cancel() {
        session.endStream(core, link: link, end: .reset, reason: "cancelled by the writer")
    }
}

/// What an ``OutgoingStream`` shares with the session: its id and name, and how it ended.
final class OutgoingStreamCore: Sendable {
    let id: UInt32
    let name: String
    private let ending = Mutex<MultipeerError?>(nil)

    init(id: UInt32, name: String) {
        self.id = id
        self.name = name
    }

    /// Why writing is over, once it is.
    var failure: MultipeerError? { ending.withLock { $0 } }

    /// Records why writing is over; the first reason stays.
    func end(_ error: MultipeerError) {
        ending.withLock { if $0 == nil { $0 = error } }
    }
}
