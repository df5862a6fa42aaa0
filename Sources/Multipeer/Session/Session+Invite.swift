import Foundation
import Synchronization

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
    ///     the host and what it proved (nil over a transport that proves nothing); a
    ///     sentence refuses the host (GOODBYE, and ``MultipeerError/Code/hostRefused`` with the
    ///     sentence is thrown). For checks such as known hosts.
    /// - Throws: ``MultipeerError/Code/connectionFailed``, ``MultipeerError/Code/connectionClosed``,
    ///   ``MultipeerError/Code/unsupportedProtocolVersion``, ``MultipeerError/Code/protocolViolation``,
    ///   ``MultipeerError/Code/sessionClosed``, ``MultipeerError/Code/cancelled``, and
    ///   ``MultipeerError/Code/hostNotAnswering`` when nothing answered at the address (at any of
    ///   the addresses, for a discovered peer).
    public func invite(
        _ endpoint: Endpoint, context: Data = Data(), timeout: Duration? = nil, hostCheck: HostCheck? = nil, answer: InvitationAnswer? = nil
    ) async throws(MultipeerError) -> InvitationOutcome {
        try await invite([endpoint], expecting: nil, context: context, timeout: timeout, hostCheck: hostCheck, answer: answer)
    }

    /// Invites a peer found by a ``Browser``, trying its addresses the likeliest first (see
    /// ``EndpointOrder``), overlapping.
    ///
    /// The peer is ``PeerState/connecting`` while the invitation is under way. Inviting a
    /// peer that is already connected returns ``InvitationOutcome/connected(_:)`` at once.
    /// See ``invite(_:context:timeout:hostCheck:answer:)-(Endpoint,_,_,_,_)`` for the outcomes and errors.
    public func invite(
        _ peer: DiscoveredPeer, context: Data = Data(), timeout: Duration? = nil, hostCheck: HostCheck? = nil,
        answer: InvitationAnswer? = nil
    ) async throws(MultipeerError) -> InvitationOutcome {
        try await invite(peer.endpoints, expecting: peer.peer, context: context, timeout: timeout, hostCheck: hostCheck, answer: answer)
    }

    /// Whether `peer` answers at one of its addresses and, over a transport that proves keys,
    /// proves the identity it was known by: a connection is opened (the likeliest address first,
    /// overlapping, as ``invite(_:context:timeout:hostCheck:answer:)-(DiscoveredPeer,_,_,_,_)`` does) and
    /// closed before anything of an invitation is said, so the peer never sees an invitation.
    /// For games remembered from before, to list those that are there.
    /// - Throws: what ``invite(_:context:timeout:hostCheck:answer:)-(DiscoveredPeer,_,_,_,_)`` throws
    ///   before an answer (``MultipeerError/Code/connectionFailed``,
    ///   ``MultipeerError/Code/hostNotAnswering``, ``MultipeerError/Code/wrongPeer``, …).
    public func probe(_ peer: DiscoveredPeer, timeout: Duration) async throws(MultipeerError) {
        try checkOpen()
        let deadline = clock.now + timeout
        let noAddress = MultipeerError(.connectionFailed, "\(peer.peer.displayName) has no address to try.")
        let attempt = await connectFirst(
            peer.endpoints, expecting: peer.peer, context: Data(), deadline: deadline, hostCheck: nil, noAddress: noAddress, isProbe: true)
        switch attempt {
        case .success(let (_, outgoing)): _ = try await outgoing.outcome.wait().get()
        case .failure(let failure): throw failure
        }
    }

    /// The key the peer listening at `endpoint` proves, learned by opening a connection and
    /// closing it before anything of an invitation is said (as ``probe(_:timeout:)`` does): so
    /// that a peer known only by its address can then be invited as the peer it proved to be,
    /// with what needs its identity beforehand (a private game's password exchange).
    /// - Returns: the key, or nil over a transport that proves nothing.
    /// - Throws: ``MultipeerError/Code/connectionFailed``, ``MultipeerError/Code/hostNotAnswering``,
    ///   ``MultipeerError/Code/sessionClosed``.
    public func identify(_ endpoint: Endpoint, timeout: Duration) async throws(MultipeerError) -> PeerFingerprint? {
        try checkOpen()
        let deadline = clock.now + timeout
        let noAddress = MultipeerError(.connectionFailed, "There is no address to try.")
        let attempt = await connectFirst(
            [endpoint], expecting: nil, context: Data(), deadline: deadline, hostCheck: nil, noAddress: noAddress, isProbe: true)
        switch attempt {
        case .success(let (_, outgoing)):
            _ = try await outgoing.outcome.wait().get()
            return await outgoing.probedKey.wait()
        case .failure(let failure):
            throw failure
        }
    }

    /// A check of the host that accepted an invitation: its peer and what it proved (its key, and
    /// the owner that endorsed it); returns a sentence to refuse it, or nil. It runs under the
    /// session's lock: it must be quick and must not call into the session.
    public typealias HostCheck = @Sendable (PeerID, PeerProof?) -> String?

    private func invite(
        _ endpoints: [Endpoint], expecting expected: PeerID?, context: Data, timeout: Duration?, hostCheck: HostCheck?, answer: InvitationAnswer?
    ) async throws(MultipeerError) -> InvitationOutcome {
        try checkOpen()
        let hello = FrameCodec.encode(.hello(.init(
            peer: localPeer, invitationTimeoutMilliseconds: 0, codeCommitment: VerificationCode.commitment(to: []), context: context)))
        if hello.frameLength > configuration.maximumFrameLength {
            throw .messageTooLarge(hello.frameLength, limit: configuration.maximumFrameLength)
        }
        if let expected, state(of: expected) == .connected { return .connected(expected) }
        let deadline = clock.now + (timeout ?? configuration.invitationTimeout)
        if let expected { postStateChange(PeerStateChange(peer: expected, state: .connecting, reason: nil)) }
        let noAddress = MultipeerError(.connectionFailed, "\(expected?.displayName ?? "The peer") advertised no address to connect to; try again when it is seen again.")
        let attempt = await connectFirst(endpoints, expecting: expected, context: context, deadline: deadline, hostCheck: hostCheck, answer: answer, noAddress: noAddress)
        let handler: LinkHandler
        let outgoing: OutgoingInvitation
        switch attempt {
        case .success(let opened):
            (handler, outgoing) = opened
        case .failure(let failure):
            if let expected { postStateChange(PeerStateChange(peer: expected, state: .notConnected, reason: .lost(failure))) }
            if deadline <= clock.now { return .timedOut }
            throw failure
        }
        let result = await withTaskCancellationHandler {
            await outgoing.outcome.wait()
        } onCancel: {
            self.cancelInvitation(handler)
        }
        return try result.get()
    }

    /// The attempt that opened first. `endpoints` are tried the likeliest first (``EndpointOrder``),
    /// each started ``attemptDelay`` after the one before, or as soon as the one before failed,
    /// overlapping (RFC 8305's way): an address that does not answer costs that delay, not a
    /// connect timeout, and one that refuses costs nothing. Only the first
    /// connection to open says HELLO; the others are closed unheard. When none opened: the last
    /// failure, or ``MultipeerError/Code/hostNotAnswering`` naming every address if none answered.
    /// The attempts are tasks of one ``ConnectAttempts``: cancelling the caller cancels them all
    /// and returns ``MultipeerError/Code/cancelled`` at once. After a win, attempts still
    /// connecting end by themselves (within their connect timeout; one that opens late is closed
    /// unheard), and the caller does not wait for them.
    private func connectFirst(
        _ given: [Endpoint], expecting expected: PeerID?, context: Data, deadline: ContinuousClock.Instant,
        hostCheck: HostCheck?, answer: InvitationAnswer? = nil, noAddress: MultipeerError, isProbe: Bool = false
    ) async -> Result<(LinkHandler, OutgoingInvitation), MultipeerError> {
        guard !given.isEmpty else { return .failure(noAddress) }
        let endpoints = given.count > 1 ? EndpointOrder.sorted(given, near: transport.localInterfaces()) : given
        let race = endpoints.count > 1 ? ConnectRace() : nil
        let first = OneShot<Result<(LinkHandler, OutgoingInvitation), MultipeerError>>()
        let left = Mutex(AttemptFailures(count: endpoints.count, last: noAddress))
        let finish: @Sendable (Endpoint, MultipeerError?, Duration) -> Void = { endpoint, error, timeout in
            let failure = left.withLock { $0.end(endpoint, error, timeout) }
            if let failure { first.resolve(.failure(failure)) }
        }
        // The first attempt's time is set now, as the call is made: a busy machine that starts its
        // task late must not turn a short invitation into none at all.
        let firstTimeout = min(max(deadline - self.clock.now, .milliseconds(1)), Self.connectTimeout)
        // Attempt i+1 starts `attemptDelay` after attempt i started, or at once when attempt i
        // fails (or gives way without trying): each attempt says when it started and whether it failed.
        let started = endpoints.map { _ in OneShot<ContinuousClock.Instant>() }
        let failed = endpoints.map { _ in OneShot<Void>() }
        let attempts = ConnectAttempts()
        for (index, endpoint) in endpoints.enumerated() {
            attempts.start {
                var timeout = firstTimeout
                if index > 0 {
                    await Self.waitForTurn(after: started[index - 1], failed: failed[index - 1], on: self.clock)
                    guard !Task.isCancelled, race?.isWon != true, deadline > self.clock.now else {
                        started[index].resolve(self.clock.now)
                        failed[index].resolve(())
                        return finish(endpoint, nil, .zero)
                    }
                    timeout = min(deadline - self.clock.now, Self.connectTimeout)
                }
                started[index].resolve(self.clock.now)
                self.logger.debug("Trying an address.", metadata: ["address": "\(endpoint)", "attempt": "\(index + 1) of \(endpoints.count)"])
                let outgoing = OutgoingInvitation(
                    expectedPeer: expected, context: context, expires: deadline, hostCheck: hostCheck, answer: answer, race: race, isProbe: isProbe)
                let handler = LinkHandler(session: self, outgoing: outgoing)
                do throws(MultipeerError) {
                    // Once the host answered, the rest of the invitation's time is the opening's: a
                    // host with every handshake place taken holds a newcomer until one frees.
                    _ = try await self.transport.connect(
                        to: endpoint, options: self.configuration.linkOptions, timeout: timeout,
                        openTimeout: max(deadline - self.clock.now, timeout), handler: handler)
                } catch {
                    failed[index].resolve(())
                    return finish(endpoint, error, timeout)
                }
                if race?.isWinner(handler.id) ?? true {
                    // Not taken only when the caller was cancelled meanwhile: nobody waits for
                    // this connection's answer, so it is let go at once.
                    if !first.resolve(.success((handler, outgoing))) { self.cancelInvitation(handler, posting: false) }
                } else if case .failure(let refusal)? = outgoing.outcome.resolvedValue, refusal.code != .cancelled {
                    // Another key answered here: this address failed, the next may be tried now.
                    failed[index].resolve(())
                    finish(endpoint, refusal, timeout)
                } else {
                    finish(endpoint, nil, .zero)
                }
            }
        }
        return await withTaskCancellationHandler {
            await first.wait()
        } onCancel: {
            first.resolve(.failure(.cancelled))
            attempts.cancelAll()
        }
    }

    /// Waits until `attemptDelay` after the attempt before started, or until it failed, whichever
    /// comes first; returns at once when the task is cancelled.
    private static func waitForTurn(after started: OneShot<ContinuousClock.Instant>, failed: OneShot<Void>, on clock: any SessionClock) async {
        guard let start = await started.waitUnlessCancelled() else { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await clock.sleep(until: start + attemptDelay, tolerance: nil) }
            group.addTask { _ = await failed.waitUnlessCancelled() }
            await group.next()
            group.cancelAll()
        }
    }

    /// How long after one address's attempt the next address is tried as well (RFC 8305's
    /// recommended connection attempt delay).
    static var attemptDelay: Duration { .milliseconds(250) }

    /// How long one address may take to accept a connection before the next is tried.
    static var connectTimeout: Duration { .seconds(5) }

    /// Ends the invitation `handler` delivers: its outcome is ``MultipeerError/Code/cancelled`` and
    /// its connection closes with a GOODBYE; `posting` says whether the expected peer is then
    /// posted as not connected (not when the caller has posted that already).
    private func cancelInvitation(_ handler: LinkHandler, posting: Bool = true) {
        // Settle first: closing the connection would otherwise settle it as "closed".
        handler.outgoing?.outcome.resolve(.failure(.cancelled))
        let effects = state.withLock { state in
            var effects = SessionEffects()
            guard let record = state.removeLink(handler.id), case .inviting(let outgoing) = record.phase else { return effects }
            effects.close(record.connection, after: .goodbye(reason: "invitation cancelled"))
            if posting, let peer = outgoing.expectedPeer { effects.post(peer, .notConnected, .invitationEnded) }
            return effects
        }
        effects.perform(on: self)
    }
}

/// How a peer's connection attempts failed so far: the last failure, and the addresses where
/// nothing answered.
struct AttemptFailures {
    var count: Int
    var last: MultipeerError
    var unanswered: [Endpoint] = []
    var longestWait: Duration = .zero
    var others = 0

    /// Notes that the attempt at `endpoint` ended (`error` nil: it gave way to another); the
    /// failure to report once every attempt has ended, nil before.
    mutating func end(_ endpoint: Endpoint, _ error: MultipeerError?, _ timeout: Duration) -> MultipeerError? {
        count -= 1
        if let error {
            last = error
            if error.code == .hostNotAnswering {
                unanswered.append(endpoint)
                longestWait = max(longestWait, timeout)
            } else {
                others += 1
            }
        }
        guard count == 0 else { return nil }
        return unanswered.count > 1 && others == 0 ? .hostNotAnswering(unanswered, within: longestWait) : last
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
