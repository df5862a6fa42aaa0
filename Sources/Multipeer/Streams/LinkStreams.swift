import Foundation

/// The byte streams of one connected link, kept in its ``LinkRecord`` under the session's lock.
///
/// Stream ids are split by role so the two sides never pick the same one: the inviter opens odd
/// ids, the advertiser even ids, each side in increasing order (see `docs/PROTOCOL.md` §3.8).
struct LinkStreams {
    /// The writer's side of a stream this side opened.
    struct Writer {
        let stream: OutgoingStreamCore
        /// Bytes the reader has granted and this side has not yet written.
        var credit: Int
        /// What the write under way has not yet handed the link (empty between writes): it
        /// goes as credit arrives and the link takes it (``Session/pumpStream(_:link:)``).
        var pending = Data()
        /// The write under way: resumed with nil once its last byte is handed to the link,
        /// or with the error that ended the stream.
        var waiter: CheckedContinuation<MultipeerError?, Never>?
        /// Bytes handed to the link that it has not yet written below (to the TLS layer and
        /// the socket): a message sent meanwhile waits behind at most these.
        var inLink = 0
        /// Whether a thread is handing this stream's bytes to the link: the others leave it to
        /// that one, so the bytes go in order without a lock held while they are sent.
        var pumping = false

        init(stream: OutgoingStreamCore, credit: Int) {
            self.stream = stream
            self.credit = credit
        }
    }

    /// The reader's side of a stream the peer opened.
    struct Reader {
        let buffer: StreamBuffer
        /// Bytes the peer may still send before it must wait for more credit.
        var window: Int
        /// The writer finished or reset it: only the app's reading keeps it open.
        var ended = false
    }

    /// The features the peer announced in its HELLO or ACCEPT.
    var peerFeatures: UInt32 = 0
    /// The features this side announced (``SessionConfiguration/features``).
    var localFeatures: UInt32 = 0
    /// Whether this side invited: its ids are odd.
    var localIsInviter = false
    /// The id this side opens next; 0 until the link is connected.
    var nextLocalID: UInt32 = 0
    /// The highest id the peer opened so far.
    var lastRemoteID: UInt32 = 0
    var writers: [UInt32: Writer] = [:]
    var readers: [UInt32: Reader] = [:]
    /// Whether the transport says where each read's frames end
    /// (``ConnectionHandler/connectionDidFinishDelivering(_:)``): readers are then woken there,
    /// once a read, rather than at each frame.
    var deliveriesSignalled = false
    /// Readers with bytes that arrived in the read under way, to wake at its end.
    var readersToWake: [StreamBuffer] = []

    /// Whether both sides announced streams.
    var areSupported: Bool { supports(WireProtocol.Feature.streams) }

    /// Whether both sides announced `feature` (and streams, which every feature runs on).
    func supports(_ feature: UInt32) -> Bool {
        let both = peerFeatures & localFeatures
        return both & WireProtocol.Feature.streams != 0 && both & feature == feature
    }

    /// Whether `id` is one this side opens (odd for the inviter, even for the advertiser).
    func isLocal(_ id: UInt32) -> Bool { (id % 2 == 1) == localIsInviter }

    /// Readies the ids once the link is connected.
    mutating func start(localIsInviter: Bool, peerFeatures: UInt32) {
        self.localIsInviter = localIsInviter
        self.peerFeatures = peerFeatures
        nextLocalID = localIsInviter ? 1 : 2
    }

    /// Ends every stream of the link with `error` (the link closed): writers' waits return and
    /// readers' sequences throw once drained. Called under the session's lock; resuming does not
    /// block.
    mutating func endAll(_ error: (String) -> MultipeerError) {
        for (_, writer) in writers {
            writer.stream.end(error(writer.stream.name))
            writer.waiter?.resume(returning: writer.stream.failure)
        }
        for (_, reader) in readers where !reader.ended {
            reader.buffer.fail(error(reader.buffer.name))
        }
        writers = [:]
        readers = [:]
        readersToWake = []
    }

    /// The writers with bytes waiting for the link, to go on once it drained (outside the lock).
    func writersWithPendingBytes() -> [OutgoingStreamCore] {
        writers.values.filter { !$0.pending.isEmpty && !$0.pumping }.map(\.stream)
    }
}
