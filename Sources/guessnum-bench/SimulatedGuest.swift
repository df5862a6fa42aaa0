import Foundation
import GuessnumGame
import Multipeer
import MultipeerNIO
import Rooms
import Synchronization

/// One simulated player over a real TCP connection: it invites itself with a hello frame, waits
/// for the welcome, then guesses, either as soon as each verdict arrives (closed loop) or on its
/// own clock (paced), and times every guess until its verdict. It speaks the wire protocol
/// directly instead of running a ``Session``, so thousands fit in one worker process; it
/// answers the host's heartbeats by sending its own when quiet, and speaks message resume as a
/// session does (a RESUME after its REVEAL, an ACKNOWLEDGE every 64 messages or when quiet),
/// though it never resumes a pairing: each link starts afresh.
final class SimulatedGuest: ConnectionHandler, Sendable {
    enum Pacing: Sendable, Equatable {
        /// The next guess leaves as soon as the previous one is answered.
        case closedLoop
        /// One guess per period, whether or not the last was answered.
        case paced
    }

    let peer: PeerID
    /// The nonce of its verification code: committed to in its hello, revealed on accept.
    private let codeNonce = VerificationCode.nonce()
    /// The transport it connects with: shared, or its own with its key for TLS.
    let transport: TCPTransport
    /// Restart runs: where it reconnects by itself, with ``ReconnectBackoff``, when its link drops.
    let reconnectsTo: Endpoint?
    let pacing: Pacing
    /// A probe's round trips are recorded apart from the crowd's.
    let isProbe: Bool
    private let recorder: WorkerRecorder
    private let state: Mutex<State>

    private struct State {
        var connection: (any Connection)?
        var connectStarted: UInt64 = 0
        var isWelcomed = false
        var isGuessing = false
        var isClosed = false
        var outstandingSince: UInt64?
        var lastSent: UInt64 = 0
        var random: SplitMix64
        /// Whether it said goodbye (it does not reconnect then).
        var isLeaving = false
        /// When the reconnect attempt under way started, while reconnecting.
        var attemptStarted: UInt64?
        /// Whether its link dropped and it is not welcomed back yet (restart runs).
        var isAway = false
        /// The host's messages received on this link, and the count last acknowledged.
        var received: UInt64 = 0
        var acknowledged: UInt64 = 0
    }

    init(peer: PeerID, transport: TCPTransport, pacing: Pacing, isProbe: Bool, seed: UInt64, recorder: WorkerRecorder, reconnectsTo: Endpoint? = nil) {
        self.transport = transport
        self.reconnectsTo = reconnectsTo
        self.peer = peer
        self.pacing = pacing
        self.isProbe = isProbe
        self.recorder = recorder
        state = Mutex(State(random: SplitMix64(seed: seed)))
    }

    var isWelcomed: Bool { state.withLock(\.isWelcomed) }
    var isClosed: Bool { state.withLock(\.isClosed) }
    /// Whether a restart run's guest is still on its way back to the new host.
    var isAway: Bool { state.withLock(\.isAway) }

    /// Stamps the start of the connect, for the connect+handshake+welcome time.
    func connecting() {
        state.withLock { $0.connectStarted = MonotonicClock.nanoseconds() }
    }

    /// Readies it to connect again after a connection that closed before its welcome; the
    /// connect time still counts from the first try.
    func tryingAgain() {
        state.withLock { state in
            state.isWelcomed = false
            state.isClosed = false
            state.connection = nil
        }
    }

    // MARK: Guessing

    /// Starts guessing; in a closed loop the first guess leaves now.
    func startGuessing() {
        let go = state.withLock { state -> Bool in
            state.isGuessing = true
            return pacing == .closedLoop
        }
        if go { guessNow() }
    }

    /// Stops guessing; answers still in flight are awaited by ``finish()``.
    func stopGuessing() {
        state.withLock { $0.isGuessing = false }
    }

    /// Called once per period when paced: guesses unless the last guess is still unanswered.
    func pacedTick() {
        let skipped = state.withLock { state in state.isGuessing && state.outstandingSince != nil }
        if skipped {
            recorder.update { $0.late += 1 }
            return
        }
        guessNow()
    }

    /// Counts a guess still unanswered as dropped; returns whether one was.
    func finish() -> Bool {
        state.withLock { state in
            defer { state.outstandingSince = nil }
            return state.outstandingSince != nil
        }
    }

    /// Whether a guess is still waiting for its answer.
    var isWaiting: Bool { state.withLock { $0.outstandingSince != nil } }

    private func guessNow() {
        let now = MonotonicClock.nanoseconds()
        let (connection, value) = state.withLock { state -> ((any Connection)?, Int64) in
            guard state.isGuessing, state.isWelcomed, !state.isClosed, state.outstandingSince == nil else { return (nil, 0) }
            state.outstandingSince = now
            state.lastSent = now
            return (state.connection, Int64(state.random.next() % BenchGame.rangeSize) + 1)
        }
        connection?.send(GuestWire.guess(value))
    }

    /// Sends a heartbeat when nothing was sent for `quietNanoseconds`.
    /// Sends a heartbeat when nothing was sent for `quietNanoseconds` (an acknowledgement
    /// instead when messages went unacknowledged, as a session does).
    func heartbeatIfQuiet(now: UInt64, quietNanoseconds: UInt64) {
        let (connection, acknowledge) = state.withLock { state -> ((any Connection)?, UInt64?) in
            guard !state.isClosed, now - state.lastSent >= quietNanoseconds else { return (nil, nil) }
            state.lastSent = now
            guard state.received > state.acknowledged else { return (state.connection, nil) }
            state.acknowledged = state.received
            return (state.connection, state.received)
        }
        connection?.send(acknowledge.map { FrameCodec.encode(.acknowledge(received: $0)) } ?? GuestWire.heartbeat)
    }

    /// Leaves the game with a goodbye.
    func leave() {
        let connection = state.withLock { state -> (any Connection)? in
            defer {
                state.isGuessing = false
                state.isLeaving = true
            }
            return state.connection
        }
        connection?.send(FrameCodec.encode(.goodbye(reason: nil)))
        connection?.close()
    }

    // MARK: ConnectionHandler

    func connectionDidOpen(_ connection: any Connection) {
        let now = MonotonicClock.nanoseconds()
        state.withLock {
            $0.connection = connection
            $0.lastSent = now
            $0.received = 0
            $0.acknowledged = 0
        }
        connection.send(GuestWire.hello(from: peer, codeNonce: codeNonce))
    }

    func connection(_ connection: any Connection, didReceive frame: Frame) {
        guard case .data(let type, let payload) = frame else {
            if case .accept = frame {
                connection.send(GuestWire.reveal(codeNonce))
                connection.send(GuestWire.freshResume())
            }
            if case .decline = frame { recorder.update { $0.failedGuests += 1 } }
            return
        }
        let acknowledge = state.withLock { state -> UInt64? in
            state.received += 1
            // As a session does: every 64 messages, and at once after one of 2,048 bytes or more.
            guard state.received - state.acknowledged >= 64 || payload.count >= 2048 else { return nil }
            state.acknowledged = state.received
            return state.received
        }
        if let acknowledge { connection.send(FrameCodec.encode(.acknowledge(received: acknowledge))) }
        let now = MonotonicClock.nanoseconds()
        switch type {
        case JudgedGuess.messageType?, GameErrorMessage.messageType?:
            let sentAt = state.withLock { state in
                defer { state.outstandingSince = nil }
                return state.outstandingSince
            }
            guard let sentAt else { return }
            if recorder.isMeasuring {
                let refused = type == GameErrorMessage.messageType
                recorder.update { stats in
                    if refused {
                        stats.refused += 1
                    } else {
                        stats.verdicts += 1
                        if isProbe {
                            stats.probeRoundTrips.recordLatency(now - sentAt)
                            if now - sentAt > stats.probeSlowest { (stats.probeSlowest, stats.probeSlowestAt) = (now - sentAt, now) }
                        } else {
                            stats.roundTrips.recordLatency(now - sentAt)
                        }
                    }
                }
            }
            if pacing == .closedLoop { guessNow() }
        case HistoryBatch.messageType?:
            guard recorder.isMeasuring else { return }
            Self.record(broadcast: payload, in: recorder, at: now)
        case WelcomeMessage.messageType?:
            let (started, attempt) = state.withLock { state -> (UInt64?, UInt64?) in
                guard !state.isWelcomed else { return (nil, nil) }
                state.isWelcomed = true
                state.isAway = false
                defer { state.attemptStarted = nil }
                return (state.connectStarted, state.attemptStarted)
            }
            if let attempt {
                recorder.update { stats in
                    stats.resumes.recordLatency(now - attempt)
                    stats.rejoined += 1
                    stats.lastRejoinedAt = max(stats.lastRejoinedAt, now)
                }
            } else if let started {
                recorder.update { stats in
                    stats.connects.recordLatency(now - started)
                    stats.welcomed += 1
                    stats.lastWelcomedAt = max(stats.lastWelcomedAt, now)
                }
            }
        default:
            return
        }
    }

    func connection(_ connection: any Connection, didCloseWith error: MultipeerError?) {
        let (wasGuessing, wasWaiting, reconnecting, firstDrop) = state.withLock { state in
            defer {
                state.isClosed = true
                state.outstandingSince = nil
            }
            let reconnecting = reconnectsTo != nil && !state.isLeaving
            if reconnecting { state.isAway = true }
            return (state.isGuessing, state.outstandingSince != nil, reconnecting, state.attemptStarted == nil)
        }
        if reconnecting {
            // A drop starts the tries; a try that fails is the tries' own business.
            guard firstDrop else { return }
            recorder.update { stats in
                stats.drops += 1
                if wasWaiting { stats.dropped += 1 }
            }
            reconnectBySelf()
            return
        }
        if wasGuessing || wasWaiting {
            recorder.update { stats in
                stats.failedGuests += 1
                if wasWaiting { stats.dropped += 1 }
            }
        }
    }
}

extension SimulatedGuest {
    /// Restart runs: tries to connect again, spaced as a player's `guessnum join` does
    /// (``ReconnectBackoff``), until welcomed back or told to leave.
    private func reconnectBySelf() {
        guard let endpoint = reconnectsTo else { return }
        Task {
            var backoff = ReconnectBackoff()
            while true {
                try? await Task.sleep(for: backoff.nextDelay())
                let go = state.withLock { state -> Bool in
                    guard !state.isLeaving else { return false }
                    state.isWelcomed = false
                    state.isClosed = false
                    state.attemptStarted = MonotonicClock.nanoseconds()
                    return true
                }
                guard go else { return }
                recorder.update { $0.reconnectAttempts += 1 }
                do {
                    _ = try await transport.connect(to: endpoint, options: LinkOptions(), timeout: .seconds(3), handler: self)
                } catch {
                    continue  // not listening yet
                }
                // Connected: wait for the welcome; a link that drops again starts over.
                let deadline = ContinuousClock.now + .seconds(5)
                while ContinuousClock.now < deadline {
                    let (welcomed, closed) = state.withLock { ($0.isWelcomed, $0.isClosed) }
                    if welcomed { return }
                    if closed { break }
                    try? await Task.sleep(for: .milliseconds(20))
                }
            }
        }
    }
}

extension SimulatedGuest {
    /// What a guest does with a broadcast: counts its verdict lines and omissions, and times it
    /// when it is one of the fan-out benchmark's. The raw fan-out's receivers do exactly this too.
    static func record(broadcast payload: Data, in recorder: WorkerRecorder, at now: UInt64) {
        let (verdicts, omitted) = GuestWire.countHistory(payload)
        let isFanOutFrame = GuestWire.isFanOutFrame(payload)
        recorder.update { stats in
            stats.broadcasts += 1
            stats.broadcastBytes += payload.count
            if isFanOutFrame { stats.countFanOutFrame(at: now) }
            stats.broadcastVerdicts += verdicts
            stats.summarisedGuesses += omitted
        }
    }
}
