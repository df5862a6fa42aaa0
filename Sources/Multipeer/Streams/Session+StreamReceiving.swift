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
            // Read field by field: a copy of the record or its streams would make the writes below copy their tables.
            guard !bytes.isEmpty, case .connected? = state.links[link]?.phase, state.links[link]?.streams.areSupported == true,
                state.links[link]?.streams.isLocal(id) == false, let reader = state.links[link]?.streams.readers[id], !reader.ended,
                reader.window >= bytes.count
            else { return false }
            state.links[link]?.lastHeard = now
            state.links[link]?.streams.readers[id]?.window -= bytes.count
            let deferWake = state.links[link]?.streams.deliveriesSignalled == true
            guard reader.buffer.append(bytes, wake: !deferWake), deferWake else { return true }
            if state.links[link]?.streams.readersToWake.last !== reader.buffer {
                state.links[link]?.streams.readersToWake.append(reader.buffer)
            }
            return true
        }
    }

    /// The transport delivered every frame of one read on link `link`: readers that waited for
    /// them are woken now, once each. From now on the link's readers are woken this way.
    func linkFinishedDelivering(_ link: ObjectIdentifier) {
        let readers = state.withLock { state -> [StreamBuffer] in
            guard state.links[link] != nil else { return [] }
            if state.links[link]?.streams.deliveriesSignalled == false { state.links[link]?.streams.deliveriesSignalled = true }
            guard state.links[link]?.streams.readersToWake.isEmpty == false else { return [] }
            defer { state.links[link]?.streams.readersToWake = [] }
            return state.links[link]?.streams.readersToWake ?? []
        }
        for reader in readers { reader.wake() }
    }
}
