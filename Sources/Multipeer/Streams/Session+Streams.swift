import Foundation
import Logging

/// Byte streams (`docs/PROTOCOL.md` §3.8): many streams and the session's messages share one
/// link. Each stream has its own credit, so a reader that stops reading stops only its writer;
/// stream data goes in chunks and only while the link is writable, so messages never wait
/// behind more than the backlog mark of stream data.
extension Session {
    /// Opens a byte stream named `name` to the connected `peer`, who is posted
    /// ``EventName/streamOpened`` with an ``IncomingStream``.
    ///
    /// - Throws: ``MultipeerError/Code/invalidStreamName`` for a name that is empty, longer than
    ///   255 bytes or holds control characters; ``MultipeerError/Code/peerNotConnected``;
    ///   ``MultipeerError/Code/unsupportedProtocolVersion`` when the peer's program has no
    ///   streams; ``MultipeerError/Code/tooManyStreams`` when
    ///   ``SessionConfiguration/maximumStreamsPerLink`` streams to the peer are open;
    ///   ``MultipeerError/Code/sessionClosed``.
    public func openStream(named name: String, to peer: PeerID) async throws(MultipeerError) -> OutgoingStream {
        if let problem = StreamName.problem(with: name) { throw .invalidStreamName(name, problem) }
        return try openWriter(named: name, to: peer, feature: WireProtocol.Feature.streams) { .streamOpen(id: $0, name: name) }
    }

    /// Opens the writing end of a stream to `peer`, whose first frame `opening` makes from the
    /// stream's id (a STREAM_OPEN, or a RESOURCE_OFFER), when both sides announced `feature`.
    func openWriter(
        named name: String, to peer: PeerID, feature: UInt32, opening: (UInt32) -> Frame
    ) throws(MultipeerError) -> OutgoingStream {
        let limit = configuration.maximumStreamsPerLink
        let window = configuration.streamWindow
        // The id is taken and its frame sent under one lock: two opens on other threads would
        // otherwise send 13 before 11, which the peer takes for a stream opened again.
        return try streamOpening.withLock { _ throws(MultipeerError) -> OutgoingStream in
            let (link, core, connection) = try state.withLock { state throws(MultipeerError) -> (ObjectIdentifier, OutgoingStreamCore, any Connection) in
                if state.isClosed { throw .sessionClosed }
                guard let link = state.connectedLinks[peer], var record = state.links[link] else { throw .peerNotConnected([peer]) }
                guard record.streams.supports(feature) else {
                    let what = feature == WireProtocol.Feature.streams ? "streams"
                        : feature & WireProtocol.Feature.folders != 0 ? "folders or several files at once (it takes one file at a time)" : "sending files"
                    throw MultipeerError(.unsupportedProtocolVersion, "\(peer.displayName)'s program does not support \(what); update both programs to the same release.")
                }
                guard record.streams.writers.count < limit else { throw .tooManyStreams(peer.displayName, limit: limit) }
                let core = OutgoingStreamCore(id: record.streams.nextLocalID, name: name)
                record.streams.nextLocalID &+= 2
                record.streams.writers[core.id] = LinkStreams.Writer(stream: core, credit: window)
                record.lastSent = clock.now
                state.links[link] = record
                return (link, core, record.connection)
            }
            connection.send(FrameCodec.encode(opening(core.id)))
            return OutgoingStream(session: self, link: link, peer: peer, core: core)
        }
    }

    /// Ends this side's stream `core`: finished or reset. Nothing happens when it has ended.
    func endStream(_ core: OutgoingStreamCore, link: ObjectIdentifier, end: Frame.StreamEnd, reason: String?) {
        let connection: (any Connection)? = state.withLock { state in
            guard let record = state.links[link], let writer = state.links[link]?.streams.writers.removeValue(forKey: core.id) else { return nil }
            core.end(.streamAlreadyEnded(core.name))
            writer.waiter?.resume(returning: core.failure)
            state.links[link]?.lastSent = clock.now
            return record.connection
        }
        connection?.send(FrameCodec.encode(.streamClose(id: core.id, end: end, reason: reason)))
    }

    /// The reader of stream `id` on `link` read `credit` bytes: the writer may send as many more.
    ///
    /// The reading task sends the STREAM_WINDOW frame itself (through the link's thread: a
    /// hand-off and a wake-up) only when the writer may be waiting for it. While the writer still
    /// holds at least ``deferrableCreditFloor(chunkBytes:)`` of credit, more of its bytes are on
    /// their way, and the read that brings them ends with the link's own thread sending the
    /// credit (``linkFinishedDelivering(_:)``): no hand-off, and the grants of one read go
    /// together. That needs a transport that says where its reads end; others get the frame at
    /// once, as before.
    func grantCredit(_ credit: Int, to id: UInt32, on link: ObjectIdentifier, buffer: StreamBuffer) {
        let floor = Self.deferrableCreditFloor(chunkBytes: configuration.streamChunkBytes)
        let now = clock.now
        let connection: (any Connection)? = state.withLock { state in
            state.withRecord(of: link) { record -> (any Connection)? in
                guard var reader = record.streams.readers[id], reader.buffer === buffer, !reader.ended else { return nil }
                if record.streams.deliveriesSignalled, reader.window >= floor {
                    if reader.deferredCredit == 0 { record.streams.readersWithDeferredCredit.append(id) }
                    reader.deferredCredit += credit
                    record.streams.readers[id] = reader
                    return nil
                }
                reader.window += credit
                record.streams.readers[id] = reader
                record.lastSent = now
                return record.connection
            } ?? nil
        }
        connection?.send(FrameCodec.encode(.streamWindow(id: id, credit: UInt32(clamping: credit))))
    }

    /// The least credit a writer must still hold for its reader's next grant to wait for the end
    /// of the link's next read: a batch at the window sessions start with (64 KiB), so the writer
    /// has a batch's worth to send meanwhile.
    static func deferrableCreditFloor(chunkBytes: Int) -> Int { LinkStreams.Writer.minimumChunksPerBatch * chunkBytes }

    /// The reader of stream `id` on `link` is done with it: read to its end, or cancelled
    /// (`reset`, and the writer is told unless it had ended the stream).
    func releaseReader(_ id: UInt32, on link: ObjectIdentifier, buffer: StreamBuffer, reset: Bool) {
        let connection: (any Connection)? = state.withLock { state in
            guard let record = state.links[link], let reader = record.streams.readers[id], reader.buffer === buffer else { return nil }
            state.links[link]?.streams.readers[id] = nil
            return reset && !reader.ended ? record.connection : nil
        }
        connection?.send(FrameCodec.encode(.streamClose(id: id, end: .reset, reason: "cancelled by the reader")))
    }

    /// Opens the peer's stream `id` for reading (a STREAM_OPEN or a RESOURCE_OFFER), or refuses
    /// it alone when the link has as many open as it may (nil then, or after a violation,
    /// which has closed the link).
    /// `maximumWindow`: how far its window may grow (the configuration's when nil).
    private func openReader(
        _ id: UInt32, named name: String, from peer: PeerID, on link: ObjectIdentifier, record: LinkRecord,
        streams: inout LinkStreams, state: inout SessionState, effects: inout SessionEffects, maximumWindow: Int? = nil
    ) -> IncomingStream? {
        if streams.isLocal(id) {
            violate(.streamOpen(id: id, name: name), on: link, record: record, why: "stream \(id) opened with an id of this side's", state: &state, effects: &effects)
            return nil
        }
        if id <= streams.lastRemoteID {
            violate(.streamOpen(id: id, name: name), on: link, record: record, why: "stream \(id) opened again", state: &state, effects: &effects)
            return nil
        }
        streams.lastRemoteID = id
        let limit = configuration.maximumStreamsPerLink
        guard streams.readers.count < limit else {
            // Refused alone: the link and its other streams go on, and nothing is kept for it.
            effects.send(.streamClose(id: id, end: .reset, reason: "too many open streams (limit \(limit))"), on: record.connection)
            effects.log(.notice, "Peer opened too many streams; the stream was refused.", .about(peer: peer.displayName, .tooManyStreams(peer.displayName, limit: limit)))
            return nil
        }
        let buffer = StreamBuffer(
            name: name, window: configuration.streamWindow, maximumWindow: maximumWindow ?? configuration.maximumStreamWindow,
            grant: { [weak self] buffer, credit in self?.grantCredit(credit, to: id, on: link, buffer: buffer) },
            release: { [weak self] buffer, reset in self?.releaseReader(id, on: link, buffer: buffer, reset: reset) })
        streams.readers[id] = LinkStreams.Reader(buffer: buffer, window: configuration.streamWindow)
        return IncomingStream(peer: peer, buffer: buffer)
    }

    /// A stream frame from the connected `peer` on link `link`.
    func receiveStreamFrame(
        _ frame: Frame, from peer: PeerID, on link: ObjectIdentifier, record: LinkRecord,
        state: inout SessionState, effects: inout SessionEffects
    ) {
        func violation(_ why: String) { violate(frame, on: link, record: record, why: why, state: &state, effects: &effects) }
        var streams = record.streams
        guard streams.areSupported else { return violation("a stream frame on a link without streams") }
        switch frame {
        case .streamOpen(let id, let name):
            guard let incoming = openReader(id, named: name, from: peer, on: link, record: record, streams: &streams, state: &state, effects: &effects) else { break }
            if state.links[link]?.heldData != nil {
                state.links[link]?.heldData?.append(.stream(incoming))  // after `connected`, as data is
            } else {
                effects.post(incoming)
            }

        case .resourceOffer(let offer):
            guard streams.supports(WireProtocol.Feature.resources) else { return violation("a resource frame on a link without resources") }
            if offer.name.contains("/"), !streams.supports(WireProtocol.Feature.folders) { return violation("a resource path on a link without folders") }
            guard let incoming = openReader(
                offer.streamID, named: offer.name, from: peer, on: link, record: record, streams: &streams, state: &state, effects: &effects,
                maximumWindow: Self.resourceWindow(size: offer.size, configuration: configuration))
            else { break }
            let after = WireProtocol.Feature.resources | WireProtocol.Feature.restartResume | WireProtocol.Feature.digestAfterBytes
            let digestFollows = offer.digestFollows && streams.supports(after)
            let arrival = ResourceArrival(
                peer: peer, link: link, offer: offer, stream: incoming, digestFollows: digestFollows,
                rootFollows: digestFollows && streams.supports(WireProtocol.Feature.chunkRootAfterBytes))
            if state.links[link]?.heldData != nil {
                state.links[link]?.heldData?.append(.resource(arrival))
            } else {
                effects.post(arrival)
            }

        case .resourceAnswer(let transfer, let verdict, let offset, let reason):
            guard streams.supports(WireProtocol.Feature.resources) else { return violation("a resource frame on a link without resources") }
            effects.signal(.answer(verdict, offset: offset, reason: reason), for: ResourceRegistry.Key(peer: peer.identity, transfer: transfer))

        case .resourceResult(let transfer, let outcome, let reason):
            guard streams.supports(WireProtocol.Feature.resources) else { return violation("a resource frame on a link without resources") }
            effects.signal(.result(outcome, reason: reason), for: ResourceRegistry.Key(peer: peer.identity, transfer: transfer))

        case .resourceHeld(let held):
            guard streams.supports(WireProtocol.Feature.resources | WireProtocol.Feature.restartResume) else {
                return violation("a resource held frame on a link without resume after a restart")
            }
            effects.signal(.held(held), for: ResourceRegistry.Key(peer: peer.identity, transfer: held.transfer))

        case .streamData(let id, let bytes):
            if streams.isLocal(id) { return violation("data on stream \(id), which this side writes") }
            guard var reader = streams.readers[id] else {
                // Data still on its way after this side cancelled or refused the stream.
                if id <= streams.lastRemoteID { return }
                return violation("data on stream \(id), which was never opened")
            }
            if reader.ended { return violation("data on stream \(id) after its end") }
            reader.window -= bytes.count
            if reader.window < 0 { return violation("more data on stream \(id) than its window allows") }
            streams.readers[id] = reader
            reader.buffer.append(bytes)

        case .streamWindow(let id, let credit):
            if !streams.isLocal(id) { return violation("a window update for stream \(id), which the peer writes") }
            guard var writer = streams.writers[id] else {
                if id < streams.nextLocalID { return }  // the stream ended here meanwhile
                return violation("a window update for stream \(id), which was never opened")
            }
            writer.add(credit: Int(credit))
            if writer.credit > Int(WireProtocol.maximumStreamCredit) { return violation("more credit on stream \(id) than a stream may hold") }
            streams.writers[id] = writer
            // The writer's bytes go on from here, on this thread (the link's), not the writing task's.
            if !writer.pumping, !writer.pending.isEmpty { effects.pump(writer.stream, on: link) }

        case .streamClose(let id, let end, let reason):
            if streams.isLocal(id) {
                // The reader gave up on a stream this side writes.
                guard let writer = streams.writers.removeValue(forKey: id) else {
                    if id < streams.nextLocalID { return }
                    return violation("stream \(id) closed, which was never opened")
                }
                writer.stream.end(.streamReset(writer.stream.name, by: peer.displayName, reason: reason))
                writer.waiter?.resume(returning: writer.stream.failure)
            } else {
                guard var reader = streams.readers[id] else {
                    if id <= streams.lastRemoteID { return }
                    return violation("stream \(id) closed, which was never opened")
                }
                if reader.ended { return violation("stream \(id) closed twice") }
                if end == .finished {
                    // Counted as open until its reader has read it to the end.
                    reader.ended = true
                    streams.readers[id] = reader
                    reader.buffer.finish()
                } else {
                    streams.readers[id] = nil
                    reader.buffer.fail(.streamReset(reader.buffer.name, by: peer.displayName, reason: reason))
                }
            }

        default:
            break
        }
        state.links[link]?.streams = streams
    }
}
