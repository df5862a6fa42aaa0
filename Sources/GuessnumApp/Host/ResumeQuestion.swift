import Foundation
import GuessnumGame
import GuessnumTerminal

/// Whether a host goes on with the game of its name that was interrupted (its program ended
/// without ending the game: a crash, `kill -9`, a power cut): `--resume` says yes in scripts; at
/// a terminal the host is asked; a script without `--resume` starts a new game, and says so.
public enum ResumeQuestion {
    /// The interrupted game in a few words: "round 3 (numbers 1–100), 2 players, 4 guesses this round".
    public static func summary(of record: GameRecord) -> String {
        "round \(record.round.number) (numbers \(record.round.range)), "
            + GameText.count(record.players.count, "player") + ", "
            + GameText.count(record.guesses.count, "guess", "guesses") + " this round"
    }

    /// What `--resume` says when no game under this name was interrupted.
    public static let nothingToResume = "Nothing to resume: no game under this name was interrupted; starting a new game."

    /// Whether to resume `record`.
    /// - Parameter resume: `--resume` was given.
    /// - Throws: ``AppFailure`` when the person gives up instead of answering (Ctrl-C, Ctrl-D).
    public static func shouldResume(_ record: GameRecord, resume: Bool, console: any Console, inbox: Inbox) async throws(AppFailure) -> Bool {
        if resume { return true }
        guard console.isInteractive else {
            console.print("An interrupted game under this name (\(summary(of: record))) is replaced by a new one; `--resume` goes on with it instead.")
            return false
        }
        console.print("Your game under this name was interrupted: \(summary(of: record)). Resume it? Its players get their seats back. [Y/n]")
        while let line = await inbox.nextLine() {
            let answer = line.trimmingCharacters(in: .whitespaces).lowercased()
            if ["", "y", "yes"].contains(answer) { return true }
            if ["n", "no"].contains(answer) { return false }
            console.print("Type y to resume the interrupted game or n to start a new one.")
        }
        throw AppFailure("No answer; the game was not started.")
    }
}
