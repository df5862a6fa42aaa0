import Foundation
import GuessnumTerminal
import SafeText
import Multipeer
import MultipeerPOSIX
import Synchronization

/// `--ask`: each invitation becomes a question to the host, answered by the next y/n line.
///
/// A question holds its inviter's connection in its handshake until the host answers, so
/// questions are limited: at most ``maximumWaiting`` wait at once, ``maximumWaitingPerNetwork``
/// from one network (an address, an IPv6 /64); past that an inviter is turned away at once with
/// a sentence, instead of taking handshake places from everyone else. A question waits
/// ``maximumWait`` at most (its inviter is then told the host did not answer), and a network
/// the host said no to is turned away at once for ``pauseAfterNo``: whoever fills the questions
/// holds them a minute, and one told no cannot ask again at once.
final class JoinQuestions: Sendable {
    /// Questions that may wait at once.
    static let maximumWaiting = 8
    /// Questions from one network that may wait at once.
    static let maximumWaitingPerNetwork = 2
    /// How long a question waits for the host's answer at most.
    static let maximumWait: Duration = .seconds(60)
    /// How long a network the host said no to is not asked about again.
    static let pauseAfterNo: Duration = .seconds(60)

    private struct Pending {
        /// The question's number, in the order asked.
        let number: UInt64
        let invitation: Invitation
        /// The network the invitation came from (``RemoteAddress/limitGroup(of:)``).
        let network: String
        /// When the question was asked.
        let asked: ContinuousClock.Instant
        let answer: CheckedContinuation<InvitationDecision, Never>
    }

    private struct Questions {
        /// The questions waiting, oldest first.
        var pending: [Pending] = []
        /// The networks the host said no to within ``pauseAfterNo``, and when.
        var saidNo: [String: ContinuousClock.Instant] = [:]
        var nextNumber: UInt64 = 0

        /// Takes out the stale questions (``takeStale(at:)``), and says whether the one shown to
        /// the host (the oldest) was among them: then the next is to be shown.
        mutating func takeStale(at now: ContinuousClock.Instant, shownAmongThem: inout Bool) -> [Pending] {
            let shown = pending.first?.number
            let stale = takeStale(at: now)
            shownAmongThem = stale.contains { $0.number == shown }
            return stale
        }

        /// Takes out the questions whose inviters gave up, or that waited ``maximumWait``, by
        /// `now`: they are to be declined and skipped. Forgets the noes older than
        /// ``pauseAfterNo``.
        mutating func takeStale(at now: ContinuousClock.Instant) -> [Pending] {
            if saidNo.values.contains(where: { now - $0 >= JoinQuestions.pauseAfterNo }) {
                saidNo = saidNo.filter { now - $0.value < JoinQuestions.pauseAfterNo }
            }
            func isStale(_ question: Pending) -> Bool { question.invitation.hasExpired || now - question.asked >= JoinQuestions.maximumWait }
            let stale = pending.filter(isStale)
            if !stale.isEmpty { pending.removeAll(where: isStale) }
            return stale
        }
    }

    /// What the host reads when the question shown was withdrawn before an answer.
    static let withdrawnLine = "That question was withdrawn: the player gave up, or a minute passed without an answer."

    /// What a question the host did not answer in time is declined with.
    static let unansweredReason = "the host did not answer within a minute; try again later"

    private let questions = Mutex(Questions())
    /// The time questions wait by (the session's).
    private let clock: any SessionClock

    /// Questions timed by `clock` (the host session's).
    init(clock: any SessionClock = SystemClock()) {
        self.clock = clock
    }

    /// How many questions wait for an answer.
    var waitingCount: Int { questions.withLock { $0.pending.count } }

    /// Declines `stale` questions: an inviter that gave up is not told; one that waited too
    /// long is told the host did not answer.
    private static func decline(_ stale: [Pending]) {
        for question in stale {
            question.answer.resume(returning: .decline(reason: question.invitation.hasExpired ? nil : unansweredReason))
        }
    }

    /// Asks the host about `invitation` and waits for the answer; declines at once when too
    /// many questions wait already, or the host said no to its network a short while ago.
    func ask(_ invitation: Invitation, console: any Console) async -> InvitationDecision {
        await withCheckedContinuation { continuation in
            let network = RemoteAddress.limitGroup(of: invitation.remoteAddress)
            let now = clock.now
            var stale: [Pending] = []
            var shownWithdrawn = false
            let (first, refusal): (Bool, String?) = questions.withLock { questions in
                stale = questions.takeStale(at: now, shownAmongThem: &shownWithdrawn)
                if questions.saidNo[network] != nil {
                    return (false, "the host said no to a player from your network address less than a minute ago; try again later")
                }
                if questions.pending.count >= Self.maximumWaiting {
                    return (false, "the host is being asked about \(Self.maximumWaiting) players already; try again in a minute")
                }
                if questions.pending.count(where: { $0.network == network }) >= Self.maximumWaitingPerNetwork {
                    return (false, "the host is being asked about \(Self.maximumWaitingPerNetwork) players from your network address already; try again in a minute")
                }
                questions.pending.append(Pending(number: questions.nextNumber, invitation: invitation, network: network, asked: now, answer: continuation))
                questions.nextNumber += 1
                return (questions.pending.count == 1, nil)
            }
            Self.decline(stale)
            if shownWithdrawn { console.print(Self.withdrawnLine) }
            if first || shownWithdrawn { prompt(console) }
            if let refusal { continuation.resume(returning: .decline(reason: refusal)) }
        }
    }

    /// Takes `line` as the answer to the oldest question, if there is one; returns whether it did.
    /// A question withdrawn meanwhile (it waited too long) takes no answer: the host is told,
    /// and shown the next.
    func answer(_ line: String, console: any Console) -> Bool {
        let word = line.trimmingCharacters(in: .whitespaces).lowercased()
        let now = clock.now
        var stale: [Pending] = []
        var shownWithdrawn = false
        let result: (Pending, InvitationDecision)? = questions.withLock { questions in
            stale = questions.takeStale(at: now, shownAmongThem: &shownWithdrawn)
            guard !shownWithdrawn, let first = questions.pending.first else { return nil }
            switch word {
            case "y", "yes":
                questions.pending.removeFirst()
                return (first, .accept)
            case "n", "no":
                questions.pending.removeFirst()
                questions.saidNo[first.network] = now
                return (first, .decline(reason: "the host said no"))
            default: return nil
            }
        }
        Self.decline(stale)
        if shownWithdrawn {
            console.print(Self.withdrawnLine)
            prompt(console)
            return true
        }
        guard let (question, decision) = result else {
            guard questions.withLock({ !$0.pending.isEmpty }) else { return false }
            console.print("Please answer y or n.")
            return true
        }
        question.answer.resume(returning: decision)
        let name = TerminalText.sanitized(question.invitation.peer.displayName)
        console.print(decision == .accept ? "Letting \(name) in." : "Turned \(name) away.")
        prompt(console)
        return true
    }

    /// Turns away everyone still waiting (the host is leaving).
    func declineAll() {
        for question in questions.withLock({ questions in defer { questions.pending = [] }; return questions.pending }) {
            question.answer.resume(returning: .decline(reason: "the host is leaving"))
        }
    }

    private func prompt(_ console: any Console) {
        guard let next = questions.withLock({ $0.pending.first }) else { return }
        console.print("\(TerminalText.sanitized(next.invitation.peer.displayName)) wants to join (from \(next.invitation.remoteDescription)). Let them in? [y/n]")
    }
}
