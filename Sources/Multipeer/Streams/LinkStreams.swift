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
        /// The most credit this side has held at once: the reader's window, as far as this side
        /// can tell (it starts at the window both sides begin with and grows with the reader's
        /// grants). It sizes the batches (``batchBytes(chunkBytes:)``).
        var largestCredit: Int

        init(stream: OutgoingStreamCore, credit: Int) {
            self.stream = stream
            self.credit = credit
            largestCredit = credit
        }

        /// Adds the reader's grant of `credit` bytes.
        mutating func add(credit: Int) {
            self.credit += credit
            largestCredit = max(largestCredit, self.credit)
        }

        /// The most bytes one hand-off frames: a quarter of the reader's window, in whole chunks,
        /// no fewer than ``minimumChunksPerBatch`` and no more than ``maximumChunksPerBatch``
        /// chunks. The link holds at most two batches not yet written below it, so a message
        /// sent meanwhile waits behind at most half a window of this stream; a window that has
        /// grown gets fewer, larger writes (one flush, one TLS write, each).
        func batchBytes(chunkBytes: Int) -> Int {
            let chunks = min(max(largestCredit / 4 / chunkBytes, Self.minimumChunksPerBatch), Self.maximumChunksPerBatch)
            return chunks * chunkBytes
        }

        /// The chunks of a batch at the 256 KiB window sessions start with (and keep, unless
        /// they let it grow): 64 KiB.
        static let minimumChunksPerBatch = 4
        /// The chunks of a batch once the window has grown to 1 MiB or more: 256 KiB, what the
        /// raw TLS pipe writes at once.
        static let maximumChunksPerBatch = 16
    }

    /// The reader's side of a stream the peer opened.
    struct Reader {
        let buffer: StreamBuffer
        /// Bytes the peer may still send before it must wait for more credit.
        var window: Int
        /// The writer finished or reset it: only the app's reading keeps it open.
        var ended = false
        /// Credit the reader gave back that the link's own thread sends, at the end of its next
        /// read from the network (``LinkStreams/readersWithDeferredCredit``), rather than the
        /// reading task handing a frame to that thread.
        var deferredCredit = 0
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
    /// Streams whose reader left credit for the link's thread to send
    /// (``Reader/deferredCredit``), in the order they did.
    var readersWithDeferredCredit: [UInt32] = []

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
        readersWithDeferredCredit = []
    }

    /// Takes the credit readers left for the link's thread (``Reader/deferredCredit``): each
    /// stream's, added to what the peer may send, for the link's thread to send as STREAM_WINDOW
    /// frames. Readers that ended meanwhile need none.
    mutating func takeDeferredCredit() -> [(id: UInt32, credit: Int)] {
        guard !readersWithDeferredCredit.isEmpty else { return [] }
        var grants: [(id: UInt32, credit: Int)] = []
        for id in readersWithDeferredCredit {
            guard var reader = readers[id], reader.deferredCredit > 0 else { continue }
            if !reader.ended {
                reader.window += reader.deferredCredit
                grants.append((id, reader.deferredCredit))
            }
            reader.deferredCredit = 0
            readers[id] = reader
        }
        readersWithDeferredCredit = []
        return grants
    }

    /// The writers with bytes waiting for the link, to go on once it drained (outside the lock).
    func writersWithPendingBytes() -> [OutgoingStreamCore] {
        writers.values.filter { !$0.pending.isEmpty && !$0.pumping }.map(\.stream)
    }
}
