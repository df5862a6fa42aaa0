import Foundation
import SafeText

/// How a stream's bytes reach the link (`docs/PROTOCOL.md` §3.8). A write leaves its bytes with
/// the link's record (``LinkStreams/Writer/pending``, not copied) and whoever finds credit and
/// room for them hands them on: the writing task at once, then the link's own thread as the
/// reader's credit arrives, as the link writes what it was handed, or as it drains after a
/// backlog. The writing task is woken once per write, not once per piece, and the bytes are
/// framed only as they go, straight into the transport's buffer
/// (``Connection/sendStreamData(id:_:chunkLength:written:)``).
///
/// At most two batches (``LinkStreams/Writer/batchBytes(chunkBytes:)``) of one stream are handed
/// to the link and not yet written below it, so the next is framed while the link writes one,
/// and a message sent meanwhile waits behind no more than that: 128 KiB at the window sessions
/// start with, at most half a window whatever the window.
extension Session {
    /// Writes `data` to this side's stream `core` on `link`: returns once the last byte is
    /// handed to the link.
    func writeStream(_ data: Data, to core: OutgoingStreamCore, link: ObjectIdentifier) async throws(MultipeerError) {
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<MultipeerError?, Never>) in
            let refusal: MultipeerError? = state.withLock { state in
                if let failure = core.failure { return failure }
                guard var writer = state.links[link]?.streams.writers[core.id] else { return core.failure ?? .streamAlreadyEnded(core.name) }
                guard writer.waiter == nil else { return MultipeerError(.cancelled, "The stream \(TerminalText.quoted(core.name)) is being written by another task; write from one task at a time.") }
                writer.pending = data
                writer.waiter = continuation
                state.links[link]?.streams.writers[core.id] = writer
                return nil
            }
            if let refusal {
                continuation.resume(returning: refusal)
            } else {
                pumpStream(core, link: link)
            }
        }
        if let outcome { throw outcome }
    }

    /// Hands the link what stream `core` has pending, as far as its credit, the link's backlog
    /// and ``streamBytesInLink`` allow, a batch at a time, and resumes its write once nothing is
    /// left. Called by whoever may have made progress possible; when another thread is at it
    /// already, that one goes on (it looks again under the lock before it stops), so the bytes
    /// go in order and no lock is held while they are framed and sent.
    func pumpStream(_ core: OutgoingStreamCore, link: ObjectIdentifier) {
        let chunkBytes = configuration.streamChunkBytes
        enum Step { case send(any Connection, Data), done(CheckedContinuation<MultipeerError?, Never>?) }
        var claimed = false
        while true {
            let now = clock.now
            let step: Step = state.withLock { state in
                state.withRecord(of: link) { record -> Step in
                    guard var writer = record.streams.writers[core.id] else { return .done(nil) }
                    if writer.pumping, !claimed { return .done(nil) }
                    let batchBytes = writer.batchBytes(chunkBytes: chunkBytes)
                    let room = record.backloggedSince == nil ? 2 * batchBytes - writer.inLink : 0
                    let count = min(writer.credit, writer.pending.count, batchBytes, room)
                    guard count > 0 else {
                        writer.pumping = false
                        var finished: CheckedContinuation<MultipeerError?, Never>?
                        if writer.pending.isEmpty {
                            finished = writer.waiter
                            writer.waiter = nil
                        }
                        record.streams.writers[core.id] = writer
                        return .done(finished)
                    }
                    let batch = writer.pending.prefix(count)
                    writer.pending = writer.pending.count == count ? Data() : writer.pending.dropFirst(count)
                    writer.credit -= count
                    writer.inLink += count
                    writer.pumping = true
                    record.streams.writers[core.id] = writer
                    record.lastSent = now
                    return .send(record.connection, batch)
                } ?? .done(nil)
            }
            switch step {
            case .done(let finished):
                finished?.resume(returning: nil)
                return
            case .send(let connection, let batch):
                claimed = true
                let count = batch.count
                connection.sendStreamData(id: core.id, batch, chunkLength: chunkBytes) { [weak self] in
                    self?.streamBytesWritten(count, of: core, link: link)
                }
            }
        }
    }

    /// The link wrote `count` bytes of stream `core` below it: room for more.
    private func streamBytesWritten(_ count: Int, of core: OutgoingStreamCore, link: ObjectIdentifier) {
        let more = state.withLock { state -> Bool in
            state.withRecord(of: link) { record -> Bool in
                guard var writer = record.streams.writers[core.id] else { return false }
                writer.inLink -= count
                record.streams.writers[core.id] = writer
                return !writer.pumping && !writer.pending.isEmpty
            } ?? false
        }
        if more { pumpStream(core, link: link) }
    }
}
