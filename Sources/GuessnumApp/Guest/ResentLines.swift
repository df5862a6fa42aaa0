import EventBus
import GuessnumGame
import GuessnumTerminal
import Multipeer
import Rooms
import SafeText

/// What a seat says when the session sent again, once back in the game, what the player had
/// sent just before the link dropped and the host had not received: which guesses, chat lines
/// and moves went out again (each still reaches the host once).
enum ResentLines {
    /// The sentence for `messages` (oldest first), or nil when none was the player's doing.
    static func sentence(for messages: [ReceivedData]) -> String? {
        var said: [String] = []
        var moves = 0
        for message in messages {
            if let guess = try? message.decode(GuessMessage.self) {
                said.append("your guess \(guess.guess)")
            } else if let chat = try? message.decode(ChatMessage.self) {
                said.append("your chat line “\(TerminalText.sanitized(chat.text))”")
            } else if message.messageType?.hasSuffix(".move") == true {
                moves += 1
            }
        }
        if moves > 0 { said.append(moves == 1 ? "your move" : "your \(moves) moves") }
        guard !said.isEmpty else { return nil }
        return "Sent again now that you are back (it had not reached the host before the drop): \(said.joined(separator: ", "))."
    }
}

extension SeatLink {
    /// Says which of the player's lines the session sent again once back in the game, after
    /// "Reconnected".
    func observeResent() -> EventObservation {
        session.events.observe(.messagesResent) { [weak self] resent in
            guard let self, resent.peer.identity == host?.identity, let sentence = ResentLines.sentence(for: resent.messages) else { return }
            console.print(sentence)
        }
    }
}
