import Foundation
import GuessnumTerminal
import SafeText
import Multipeer
import Synchronization

/// `--ask`: each invitation becomes a question to the host, answered by the next y/n line.
///
/// A question holds its inviter's connection in its handshake until the host answers (or the
/// invitation expires, up to 5 minutes), so questions are limited: at most
/// ``maximumWaiting`` wait at once, ``maximumWaitingPerNetwork`` from one network (an address,
/// an IPv6 /64); past that an inviter is turned away at once with a sentence, instead of
/// taking handshake places from everyone else for minutes.
final class JoinQuestions: Sendable {
    /// Questions that may wait at once.
    static let maximumWaiting = 8
    /// Questions from one network that may wait at once.
    static let maximumWaitingPerNetwork = 2

    private struct Pending {
        let invitation: Invitation
        /// The network the invitation came from (``RemoteAddress/limitGroup(of:)``).
        let network: String
        let answer: CheckedContinuation<InvitationDecision, Never>
    }

    /// Takes out the questions whose inviters gave up meanwhile: they are to be answered (the
    /// session ignores it) and skipped.
    private static func takeExpired(from pending: inout [Pending]) -> [Pending] {
        let expired = pending.filter { $0.invitation.hasExpired }
        if !expired.isEmpty { pending.removeAll { $0.invitation.hasExpired } }
        return expired
    }

    private let pending = Mutex<[Pending]>([])

    /// How many questions wait for an answer.
    var waitingCount: Int { pending.withLock { $0.count } }

    /// Asks the host about `invitation` and waits for the answer; declines at once when too
    /// many questions wait already.
    func ask(_ invitation: Invitation, console: any Console) async -> InvitationDecision {
        await withCheckedContinuation { continuation in
            let network = RemoteAddress.limitGroup(of: invitation.remoteAddress)
            var expired: [Pending] = []
            let (first, refusal): (Bool, String?) = pending.withLock { pending in
                expired = Self.takeExpired(from: &pending)
                if pending.count >= Self.maximumWaiting {
                    return (false, "the host is being asked about \(Self.maximumWaiting) players already; try again in a minute")
                }
                if pending.count(where: { $0.network == network }) >= Self.maximumWaitingPerNetwork {
                    return (false, "the host is being asked about \(Self.maximumWaitingPerNetwork) players from your network address already; try again in a minute")
                }
                pending.append(Pending(invitation: invitation, network: network, answer: continuation))
                return (pending.count == 1, nil)
            }
            for question in expired { question.answer.resume(returning: .decline(reason: nil)) }
            if let refusal { return continuation.resume(returning: .decline(reason: refusal)) }
            if first { prompt(console) }
        }
    }

    /// Takes `line` as the answer to the oldest question, if there is one; returns whether it did.
    func answer(_ line: String, console: any Console) -> Bool {
        let word = line.trimmingCharacters(in: .whitespaces).lowercased()
        var expired: [Pending] = []
        let result: (Pending, InvitationDecision)? = pending.withLock { pending in
            expired = Self.takeExpired(from: &pending)
            guard let first = pending.first else { return nil }
            switch word {
            case "y", "yes": pending.removeFirst(); return (first, .accept)
            case "n", "no": pending.removeFirst(); return (first, .decline(reason: "the host said no"))
            default: return nil
            }
        }
        for question in expired { question.answer.resume(returning: .decline(reason: nil)) }
        guard let (question, decision) = result else {
            if pending.withLock({ !$0.isEmpty }) {
                console.print("Please answer y or n.")
                return true
            }
            return false
        }
        question.answer.resume(returning: decision)
        let name = TerminalText.sanitized(question.invitation.peer.displayName)
        console.print(decision == .accept ? "Letting \(name) in." : "Turned \(name) away.")
        prompt(console)
        return true
    }

    /// Turns away everyone still waiting (the host is leaving).
    func declineAll() {
        for question in pending.withLock({ pending in defer { pending = [] }; return pending }) {
            question.answer.resume(returning: .decline(reason: "the host is leaving"))
        }
    }

    private func prompt(_ console: any Console) {
        guard let next = pending.withLock({ $0.first }) else { return }
        console.print("\(TerminalText.sanitized(next.invitation.peer.displayName)) wants to join (from \(next.invitation.remoteDescription)). Let them in? [y/n]")
    }
}
