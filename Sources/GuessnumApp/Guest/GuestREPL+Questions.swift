import Foundation
import GuessnumTerminal
import Rooms

/// What the player is asked while joining (another key than before, a private game's
/// password), and what the next line typed does as the answer.
extension GuestREPL {
    /// A question to the player about joining a game.
    enum Question: Sendable {
        /// Its host proved another key than before: join anyway? (yes or no)
        case newKey(JoinTarget)
        /// It is private: the password (typed hidden).
        case password(JoinTarget, acceptingNewKey: Bool)

        /// The game the question is about.
        var target: JoinTarget {
            switch self {
            case .newKey(let target), .password(let target, _): target
            }
        }
    }

    /// What the player's answer to `asked` does.
    func answer(_ asked: Question, with line: String) async -> CommandFlow {
        switch asked {
        case .newKey(let target):
            if YesAnswer.isYes(line) {
                if await join(target, acceptingNewKey: true) != .notJoined { return .stay }
            } else {
                console.print("Not joined.")
            }
        case .password(let target, let acceptingNewKey):
            do {
                if await join(target, acceptingNewKey: acceptingNewKey, password: try GamePassword(line)) != .notJoined { return .stay }
            } catch {
                console.print(error.message)
            }
        }
        // Joined by code or address, with no list of games open: nothing else to do.
        if !asked.target.isListed, !lobby.isOpen {
            outcome = Self.notJoined(asked.target)
            return .quit
        }
        console.print(games.wholeListLines())
        return .stay
    }
}
