import Foundation

extension Session {
    /// Invites the peer listening at `endpoint` to connect, and waits for its answer.
    ///
    /// The outcome is exactly one of: ``InvitationOutcome/connected(_:)``,
    /// ``InvitationOutcome/declined(reason:)`` or ``InvitationOutcome/timedOut``. Problems that
    /// keep the invitation from being delivered or answered are thrown instead.
    ///
    /// - Parameters:
    ///   - endpoint: where the advertising session listens.
    ///   - context: bytes the advertiser's policy sees with the invitation.
    ///   - timeout: how long to wait for the answer, connecting included; by default
    ///     ``SessionConfiguration/invitationTimeout``.
    ///   - hostCheck: asked when the host accepts, before anything of the session is posted:
    ///     the host and the key it proved (nil over a transport that proves nothing); a
    ///     sentence refuses the host (GOODBYE, and ``MultipeerError/Code/hostRefused`` with the
    ///     sentence is thrown). For checks such as known hosts.
    /// - Throws: ``MultipeerError/Code/connectionFailed``, ``MultipeerError/Code/connectionClosed``,
    ///   ``MultipeerError/Code/unsupportedProtocolVersion``, ``MultipeerError/Code/protocolViolation``,
    ///   ``MultipeerError/Code/sessionClosed``, ``MultipeerError/Code/cancelled``.
    public func invite(
        _ endpoint: Endpoint, context: Data = Data(), timeout: Duration? = nil, hostCheck: HostCheck? = nil
    ) async throws(MultipeerError) -> InvitationOutcome {
        try await invite([endpoint], expecting: nil, context: context, timeout: timeout, hostCheck: hostCheck)
    }

    /// Invites a peer found by a ``Browser``, trying each of its addresses in turn.
    ///
    /// The peer is ``PeerState/connecting`` while the invitation is under way. Inviting a
    /// peer that is already connected returns ``InvitationOutcome/connected(_:)`` at once.
    /// See ``invite(_:context:timeout:hostCheck:)-(Endpoint,_,_,_)`` for the outcomes and errors.
    public func invite(
        _ peer: DiscoveredPeer, context: Data = Data(), timeout: Duration? = nil, hostCheck: HostCheck? = nil
    ) async throws(MultipeerError) -> InvitationOutcome {
        try await invite(peer.endpoints, expecting: peer.peer, context: context, timeout: timeout, hostCheck: hostCheck)
    }

    /// A check of the host that accepted an invitation: its peer and the key it proved; returns
    /// a sentence to refuse it, or nil. It runs under the session's lock: it must be quick and
    /// must not call into the session.
    public typealias HostCheck = @Sendable (PeerID, PeerFingerprint?) -> String?

    private func invite(
        _ endpoints: [Endpoint], expecting expected: PeerID?, context: Data, timeout: Duration?, hostCheck: HostCheck?
    ) async throws(MultipeerError) -> InvitationOutcome {
        try checkOpen()
        let hello = FrameCodec.encode(.hello(.init(peer: localPeer, invitationTimeoutMilliseconds: 0, context: context)))
        if hello.frameLength > configuration.maximumFrameLength {
            throw .messageTooLarge(hello.frameLength, limit: configuration.maximumFrameLength)
        }
        if let expected, state(of: expected) == .connected { return .connected(expected) }
        let deadline = ContinuousClock.now + (timeout ?? configuration.invitationTimeout)
        if let expected { postStateChange(PeerStateChange(peer: expected, state: .connecting, reason: nil)) }
        var failure = MultipeerError(.connectionFailed, "\(expected?.displayName ?? "The peer") advertised no address to connect to; try again when it is seen again.")
        for endpoint in endpoints {
            let remaining = deadline - .now
            if remaining <= .zero { break }
            let outgoing = OutgoingInvitation(expectedPeer: expected, context: context, expires: deadline, hostCheck: hostCheck)
            let handler = LinkHandler(session: self, outgoing: outgoing)
            do {
                _ = try await transport.connect(
                    to: endpoint, options: configuration.linkOptions,
                    timeout: min(remaining, Self.connectTimeout), handler: handler)
            } catch {
                failure = error
                continue
            }
            let result = await withTaskCancellationHandler {
                await outgoing.outcome.wait()
            } onCancel: {
                self.cancelInvitation(handler)
            }
            return try result.get()
        }
        if let expected { postStateChange(PeerStateChange(peer: expected, state: .notConnected, reason: .lost(failure))) }
        if deadline <= .now { return .timedOut }
        throw failure
    }

    /// How long one address may take to accept a connection before the next is tried.
    static var connectTimeout: Duration { .seconds(5) }

    private func cancelInvitation(_ handler: LinkHandler) {
        // Settle first: closing the connection would otherwise settle it as "closed".
        handler.outgoing?.outcome.resolve(.failure(.cancelled))
        let effects = state.withLock { state in
            var effects = SessionEffects()
            guard let record = state.removeLink(handler.id), case .inviting(let outgoing) = record.phase else { return effects }
            effects.close(record.connection, after: .goodbye(reason: "invitation cancelled"))
            if let peer = outgoing.expectedPeer { effects.post(peer, .notConnected, .invitationEnded) }
            return effects
        }
        effects.perform(on: self)
    }
}

extension Result where Failure == MultipeerError {
    /// The value, or the error thrown with its type kept.
    func get() throws(MultipeerError) -> Success {
        switch self {
        case .success(let value): return value
        case .failure(let error): throw error
        }
    }
}
