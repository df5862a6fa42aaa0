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
        /// A write waiting for credit or for the link to become writable.
        var waiter: CheckedContinuation<Void, Never>?
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
            writer.waiter?.resume()
        }
        for (_, reader) in readers where !reader.ended {
            reader.buffer.fail(error(reader.buffer.name))
        }
        writers = [:]
        readers = [:]
    }

    /// Takes every waiting writer, to resume them outside the lock (the link became writable).
    mutating func takeWaiters() -> [CheckedContinuation<Void, Never>] {
        var waiters: [CheckedContinuation<Void, Never>] = []
        for id in writers.keys {
            if let waiter = writers[id]?.waiter {
                waiters.append(waiter)
                writers[id]?.waiter = nil
            }
        }
        return waiters
    }
}
