import Foundation

/// How a stream's bytes arrive (`docs/PROTOCOL.md` §3.8): the common STREAM_DATA frame — on a
/// connected link, for a stream open for reading, within its window — takes one short lock
/// that touches only what it changes; anything else (the frame breaks a rule) takes the
/// session's general path, which reports it. A reader waiting for bytes is woken once for all
/// the frames of one read from the network when the transport says where a read ends
/// (``ConnectionHandler/connectionDidFinishDelivering(_:)``), not once per frame.
extension Session {
    /// Takes the STREAM_DATA frame `bytes` of stream `id` from link `link` when it is the common
    /// case; false (nothing done) when it is not, for the general path to judge.
    func receiveStreamDataQuickly(id: UInt32, bytes: Data, on link: ObjectIdentifier) -> Bool {
        let now = clock.now
        return state.withLock { state in
            state.withRecord(of: link) { record -> Bool in
                guard !bytes.isEmpty, case .connected = record.phase, record.streams.areSupported, !record.streams.isLocal(id),
                    let reader = record.streams.readers[id], !reader.ended, reader.window >= bytes.count
                else { return false }
                record.lastHeard = now
                record.streams.readers[id]?.window -= bytes.count
                let deferWake = record.streams.deliveriesSignalled
                guard reader.buffer.append(bytes, wake: !deferWake), deferWake else { return true }
                if record.streams.readersToWake.last !== reader.buffer { record.streams.readersToWake.append(reader.buffer) }
                return true
            } ?? false
        }
    }

    /// Takes the STREAM_WINDOW frame granting `credit` to this side's stream `id` on link `link`
    /// when it is the common case, and sends what the stream has pending from here (the link's
    /// thread); false (nothing done) when it is not, for the general path to judge.
    func receiveStreamWindowQuickly(id: UInt32, credit: UInt32, on link: ObjectIdentifier) -> Bool {
        let now = clock.now
        let (taken, pump): (Bool, OutgoingStreamCore?) = state.withLock { state in
            state.withRecord(of: link) { record -> (Bool, OutgoingStreamCore?) in
                guard case .connected = record.phase, record.streams.areSupported, record.streams.isLocal(id),
                    var writer = record.streams.writers[id], writer.credit + Int(credit) <= Int(WireProtocol.maximumStreamCredit)
                else { return (false, nil) }
                record.lastHeard = now
                writer.add(credit: Int(credit))
                record.streams.writers[id] = writer
                return (true, !writer.pumping && !writer.pending.isEmpty ? writer.stream : nil)
            } ?? (false, nil)
        }
        if let pump { pumpStream(pump, link: link) }
        return taken
    }

    /// The transport delivered every frame of one read on link `link`: the credit readers left
    /// for this thread goes to their writers (``grantCredit(_:to:on:buffer:)``), then readers
    /// that waited for the read's bytes are woken, once each. From now on the link's readers are
    /// woken, and their credit may be sent, this way.
    func linkFinishedDelivering(_ link: ObjectIdentifier) {
        // A session without streams (a game's) has no reader to wake: every read of a game's
        // link comes here, so it costs nothing then.
        guard configuration.features & WireProtocol.Feature.streams != 0 else { return }
        let now = clock.now
        let (readers, grants, connection) = state.withLock { state -> ([StreamBuffer], [(id: UInt32, credit: Int)], (any Connection)?) in
            state.withRecord(of: link) { record -> ([StreamBuffer], [(id: UInt32, credit: Int)], (any Connection)?) in
                record.streams.deliveriesSignalled = true
                let grants = record.streams.takeDeferredCredit()
                if !grants.isEmpty { record.lastSent = now }
                guard !record.streams.readersToWake.isEmpty else { return ([], grants, record.connection) }
                defer { record.streams.readersToWake = [] }
                return (record.streams.readersToWake, grants, record.connection)
            } ?? ([], [], nil)
        }
        for grant in grants {
            connection?.send(FrameCodec.encode(.streamWindow(id: grant.id, credit: UInt32(clamping: grant.credit))))
        }
        for reader in readers { reader.wake() }
    }
}

extension SessionState {
    /// Runs `body` on the record of `link` where it lies, or returns nil when there is none: a
    /// copy of the record (what `links[link]?.…` reads make) would make every write to its
    /// tables copy them, once per stream frame.
    mutating func withRecord<Result>(of link: ObjectIdentifier, _ body: (inout LinkRecord) -> Result) -> Result? {
        guard let index = links.index(forKey: link) else { return nil }
        return body(&links.values[index])
    }
}
