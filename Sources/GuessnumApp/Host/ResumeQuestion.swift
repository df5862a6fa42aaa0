import Foundation
import GuessnumGame
import GuessnumTerminal

/// Whether a host goes on with the game of its name that was interrupted (its program ended
/// without ending the game: a crash, `kill -9`, a power cut): `--resume` says yes in scripts; at
/// a terminal the host is asked; a script without `--resume` starts a new game, and says so.
public enum ResumeQuestion {
    /// The interrupted game in a few words: "round 3 (numbers 1–100), 2 players, 4 guesses this round".
    public static func summary(of snapshot: RoomSnapshot<GuessRules>) -> String {
        let round = snapshot.rules.currentRound
        return "round \(snapshot.round) (numbers \(round?.range ?? snapshot.rules.settings.range)), "
            + GameText.count(snapshot.seats.count, "player") + ", "
            + GameText.count(round?.judgedCount ?? 0, "guess", "guesses") + " this round"
    }

    /// An interrupted room game in a few words: "round 2 of tic-tac-toe, 2 players".
    public static func summary<Rules>(of snapshot: RoomSnapshot<Rules>) -> String {
        "round \(snapshot.round) of \(Rules.kind.title), " + GameText.count(snapshot.seats.count, "player")
    }

    /// What `--resume` says when no game under this name was interrupted.
    public static let nothingToResume = "Nothing to resume: no game under this name was interrupted; starting a new game."

    /// Whether to resume the interrupted game that `summary` describes (nil: there is none):
    /// says so when it does, or when `--resume` finds nothing.
    /// - Parameters:
    ///   - resume: `--resume` was given.
    ///   - grace: how long the players' seats are held.
    /// - Throws: ``AppFailure`` when the person gives up instead of answering (Ctrl-C, Ctrl-D).
    public static func shouldResume(_ summary: String?, resume: Bool, grace: Int, console: any Console, inbox: Inbox) async throws(AppFailure) -> Bool {
        guard let summary else {
            if resume { console.print(nothingToResume) }
            return false
        }
        guard try await shouldResume(summary, resume: resume, console: console, inbox: inbox) else { return false }
        console.print("Resuming your game: \(summary); its players' seats are held for \(grace) s, and they come back by themselves.")
        return true
    }

    private static func shouldResume(_ summary: String, resume: Bool, console: any Console, inbox: Inbox) async throws(AppFailure) -> Bool {
        if resume { return true }
        guard console.isInteractive else {
            console.print("An interrupted game under this name (\(summary)) is replaced by a new one; `--resume` goes on with it instead.")
            return false
        }
        console.print("Your game under this name was interrupted: \(summary). Resume it? Its players get their seats back. [Y/n]")
        while let line = await inbox.nextLine() {
            let answer = line.trimmingCharacters(in: .whitespaces).lowercased()
            if ["", "y", "yes"].contains(answer) { return true }
            if ["n", "no"].contains(answer) { return false }
            console.print("Type y to resume the interrupted game or n to start a new one.")
        }
        throw AppFailure("No answer; the game was not started.")
    }
}
