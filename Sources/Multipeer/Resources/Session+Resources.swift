import Foundation

/// Resources (`docs/PROTOCOL.md` §3.9): files sent on byte streams, offered with their name,
/// size and SHA-256, accepted or declined by the receiver, checked before they are put in
/// place, and resumed from what the receiver holds when a link drops and the same peer
/// connects again.
extension Session {
    /// Sends the file at `url` to the connected `peer`, who is posted
    /// ``EventName/resourceOffered`` and accepts or declines it.
    ///
    /// Returns at once: the file is hashed, offered and sent by the returned handle, which
    /// reports progress and its outcome. When the link drops, the transfer waits up to
    /// ``SessionConfiguration/resourceResumeWindow`` for the peer to be connected again
    /// (whoever reconnects) and goes on from what the receiver already has.
    ///
    /// - Parameter name: the name the receiver sees; the file's own name when nil.
    /// - Throws: ``MultipeerError/Code/invalidResourceName`` for a name that is not a plain
    ///   file name; ``MultipeerError/Code/resourceUnreadable`` when the file cannot be opened
    ///   or is not a regular file; ``MultipeerError/Code/peerNotConnected``;
    ///   ``MultipeerError/Code/sessionClosed``.
    public func sendResource(at url: URL, named name: String? = nil, to peer: PeerID) throws(MultipeerError) -> OutgoingResource {
        let name = name ?? url.lastPathComponent
        if let problem = ResourceName.problem(with: name) { throw .invalidResourceName(name, problem) }
        try state.withLock { state throws(MultipeerError) in
            if state.isClosed { throw .sessionClosed }
            guard state.connectedLinks[peer] != nil else { throw .peerNotConnected([peer]) }
        }
        let file = try resourceFiles.openSource(at: url, followingLinks: true)
        return OutgoingResource(session: self, file: file, name: name, peer: peer)
    }

    /// Sends the file at `url` to the connected `peer` under `path`, a relative path inside a
    /// folder ("photos/2024/beach.jpg", a ``ResourcePath``): the receiver makes the folders
    /// under the directory it accepts the file into. The file itself is opened without
    /// following a symbolic link. Otherwise as ``sendResource(at:named:to:)``.
    ///
    /// - Throws: ``MultipeerError/Code/invalidResourceName`` for a path that breaks the rule;
    ///   ``MultipeerError/Code/unsupportedProtocolVersion`` when the peer's program takes no
    ///   folders (``WireProtocol/Feature/folders``, see ``supports(_:with:)``);
    ///   ``MultipeerError/Code/resourceUnreadable`` for a symbolic link or a file that cannot
    ///   be opened; ``MultipeerError/Code/peerNotConnected``; ``MultipeerError/Code/sessionClosed``.
    public func sendResource(at url: URL, path: String, to peer: PeerID) throws(MultipeerError) -> OutgoingResource {
        if let problem = ResourcePath.problem(with: path) { throw .invalidResourceName(path, problem) }
        try state.withLock { state throws(MultipeerError) in
            if state.isClosed { throw .sessionClosed }
            guard let link = state.connectedLinks[peer], let record = state.links[link] else { throw .peerNotConnected([peer]) }
            guard record.streams.supports(WireProtocol.Feature.resources | WireProtocol.Feature.folders) else {
                throw MultipeerError(.unsupportedProtocolVersion, "\(peer.displayName)'s program takes one file at a time, not folders or several files at once; update it to this release.")
            }
        }
        let file = try resourceFiles.openSource(at: url, followingLinks: false)
        return OutgoingResource(session: self, file: file, name: path, peer: peer)
    }

    /// Whether the link to the connected `peer` has `feature` (a ``WireProtocol/Feature`` bit):
    /// both sides announced it. False when `peer` is not connected.
    public func supports(_ feature: UInt32, with peer: PeerID) -> Bool {
        state.withLock { state in
            guard let link = state.connectedLinks[peer], let record = state.links[link] else { return false }
            return record.streams.supports(feature)
        }
    }

    /// Offers `offer` (its stream id filled in) to `peer`: the writing end of the stream that
    /// will carry its bytes. An offer whose name is a path needs ``WireProtocol/Feature/folders``.
    func openResourceStream(_ offer: Frame.ResourceOffer, to peer: PeerID) throws(MultipeerError) -> OutgoingStream {
        let feature = offer.name.contains("/") ? WireProtocol.Feature.resources | WireProtocol.Feature.folders : WireProtocol.Feature.resources
        return try openWriter(named: offer.name, to: peer, feature: feature) { id in
            var offer = offer
            offer.streamID = id
            return .resourceOffer(offer)
        }
    }

    /// Whether `link` is open and has `feature` (both sides announced it).
    func link(_ link: ObjectIdentifier, supports feature: UInt32) -> Bool {
        state.withLock { $0.links[link]?.streams.supports(feature) ?? false }
    }

    /// Sends `frame` on `link` if it is still open.
    func send(_ frame: Frame, onLink link: ObjectIdentifier) {
        let connection = state.withLock { state -> (any Connection)? in
            guard let record = state.links[link] else { return nil }
            state.links[link]?.lastSent = clock.now
            return record.connection
        }
        connection?.send(FrameCodec.encode(frame))
    }

    /// A peer offered a resource: an interrupted transfer it offers again resumes, a new one
    /// is posted for the app to answer.
    func receiveOffer(_ arrival: ResourceArrival) {
        let key = ResourceRegistry.Key(peer: arrival.peer.identity, transfer: arrival.offer.transfer)
        if let resource = resources.receiver(for: key) {
            resource.offeredAgain(arrival)
        } else if resources.adopt(arrival, under: key) {
            // A sender that restarted offers again a transfer still waiting for it: it goes on.
        } else if let ended = resources.endedTransfer(for: key, now: clock.now, window: configuration.resourceResumeWindow) {
            ResourceReceiving.tell(ended, on: arrival, session: self)
        } else {
            events.post(.resourceOffered, ResourceOffer(session: self, arrival: arrival))
        }
    }
}

extension Session {
    /// How far the window of a resource's stream of `size` bytes may grow: the configuration's
    /// ``SessionConfiguration/maximumStreamWindow``, but no more than 1 % of the file less one
    /// write batch (and never less than the initial ``SessionConfiguration/streamWindow``), so
    /// that what a receiver that is killed loses on the way (its window and its unwritten batch)
    /// is within 1 % of the file: what is sent again after its restart stays within 1 % and its
    /// last chunk not whole yet.
    static func resourceWindow(size: UInt64, configuration: SessionConfiguration) -> Int {
        let share = Int(clamping: size / 100) - ResourceReceiving.batchBytes
        return max(configuration.streamWindow, min(configuration.maximumStreamWindow, share))
    }

    /// Whether ``disconnect(reason:)`` was called.
    var isClosed: Bool { state.withLock { $0.isClosed } }
}
