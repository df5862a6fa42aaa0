import Foundation
import GuessnumTerminal
import SafeText
import Multipeer
import Synchronization

/// `--ask`: each invitation becomes a question to the host, answered by the next y/n line.
final class JoinQuestions: Sendable {
    private struct Pending {
        let invitation: Invitation
        let answer: CheckedContinuation<InvitationDecision, Never>
    }

    private let pending = Mutex<[Pending]>([])

    /// Asks the host about `invitation` and waits for the answer.
    func ask(_ invitation: Invitation, console: any Console) async -> InvitationDecision {
        await withCheckedContinuation { continuation in
            let first = pending.withLock { pending in
                pending.append(Pending(invitation: invitation, answer: continuation))
                return pending.count == 1
            }
            if first { prompt(console) }
        }
    }

    /// Takes `line` as the answer to the oldest question, if there is one; returns whether it did.
    func answer(_ line: String, console: any Console) -> Bool {
        let word = line.trimmingCharacters(in: .whitespaces).lowercased()
        var expired: [Pending] = []
        let result: (Pending, InvitationDecision)? = pending.withLock { pending in
            // Inviters who gave up meanwhile are answered (the session ignores it) and skipped.
            expired = pending.filter { $0.invitation.expires < .now }
            pending.removeAll { $0.invitation.expires < .now }
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
