import Multipeer
import Synchronization

/// Getting back into a game whose link dropped: tries in the background, spaced by a
/// ``Multipeer/ReconnectBackoff``, until the host lets the player back in, turns them away,
/// or the seat's grace period is over; each outcome reaches the REPL as
/// ``AppEvent/rejoin(_:)``. Meanwhile it keeps what the player types, to send once back.
final class Reconnection: Sendable {
    /// One try to get back in: an invitation to the host, answered within `timeout`, saying
    /// that the player has the broadcast items up to `resumeAfter` (nil: before any welcome).
    typealias Rejoin = @Sendable (_ timeout: Duration, _ resumeAfter: UInt64?) async throws(MultipeerError) -> InvitationOutcome

    /// The longest one try may take, so that the next comes while the seat is still held.
    static let attemptTimeout: Duration = .seconds(3)
    /// The most lines kept while disconnected; more are refused with a sentence.
    static let lineLimit = 20

    /// How long the host holds the seat, as its welcome said.
    let hold: Duration
    private let task: Task<Void, Never>
    private let lines = Mutex<[String]>([])

    /// Starts trying at once (the first try within a second), for a player who has the
    /// broadcast items up to `resumeAfter`.
    init(hold: Duration, resumeAfter: UInt64?, rejoin: @escaping Rejoin, inbox: Inbox) {
        self.hold = hold
        let deadline = ContinuousClock.now + hold
        task = Task {
            let result = await Self.tryAgain(until: deadline) { timeout throws(MultipeerError) in try await rejoin(timeout, resumeAfter) }
            if !Task.isCancelled { inbox.post(.rejoin(result)) }
        }
    }

    /// Stops trying (the player left or quit).
    func cancel() {
        task.cancel()
    }

    /// Keeps `line` to be sent once back; false when ``lineLimit`` lines are waiting already.
    func keep(_ line: String) -> Bool {
        lines.withLock { lines in
            guard lines.count < Self.lineLimit else { return false }
            lines.append(line)
            return true
        }
    }

    /// The lines kept, oldest first; afterwards none are.
    func takeLines() -> [String] {
        lines.withLock { lines in
            defer { lines = [] }
            return lines
        }
    }

    private static func tryAgain(
        until deadline: ContinuousClock.Instant, rejoin: (Duration) async throws(MultipeerError) -> InvitationOutcome
    ) async -> RejoinResult {
        var backoff = ReconnectBackoff()
        while !Task.isCancelled {
            let wake = ContinuousClock.now + backoff.nextDelay()
            guard wake < deadline else { break }
            try? await Task.sleep(until: wake)
            guard !Task.isCancelled else { break }
            do throws(MultipeerError) {
                switch try await rejoin(min(attemptTimeout, deadline - .now)) {
                case .connected: return .back
                case .declined(let reason): return .declined(reason: reason)
                case .timedOut: continue
                }
            } catch where error.code == .hostRefused || error.code == .wrongPeer {
                return .refused(error.message)
            } catch {
                continue  // not reachable yet: the link is still down, or the host is restarting
            }
        }
        try? await Task.sleep(until: deadline)
        return .gaveUp
    }
}
