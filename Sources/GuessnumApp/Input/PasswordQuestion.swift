import Foundation
import GuessnumGame
import GuessnumTerminal

/// Where a private game's password comes from: `GUESSNUM_PASSWORD` in scripts, or typed at
/// the terminal without being shown.
public enum PasswordQuestion {
    /// The environment variable scripts give the password in.
    public static let environmentVariable = "GUESSNUM_PASSWORD"

    /// The password `environment` gives; nil when the variable is not set.
    /// - Throws: ``AppFailure`` (64) when it is set but empty or too long.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws(AppFailure) -> GamePassword? {
        guard let text = environment[environmentVariable] else { return nil }
        do { return try GamePassword(text) } catch {
            throw AppFailure("\(environmentVariable): \(error.message)", .usage, underlying: error)
        }
    }

    /// The password of the game a host is about to start: from the environment, or typed
    /// twice (hidden) at the terminal until both match.
    /// - Throws: ``AppFailure`` when there is no terminal to ask at and no environment
    ///   variable (64), or when the person gives up (Ctrl-C, Ctrl-D).
    public static func askHost(
        console: any Console, inbox: Inbox, environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws(AppFailure) -> GamePassword {
        if let password = try fromEnvironment(environment) {
            if let hint = shortPasswordHint(environment[environmentVariable] ?? "") { console.print(hint) }
            return password
        }
        guard console.isInteractive else {
            throw AppFailure("--password needs a terminal to ask at, or the password in \(environmentVariable).", .usage)
        }
        console.print("This game will be private: players join with the password you choose now (it is not shown as you type).")
        while true {
            let first = try await readHidden("Password: ", console: console, inbox: inbox)
            let password: GamePassword
            do { password = try GamePassword(first) } catch {
                console.print(error.message)
                continue
            }
            let second = try await readHidden("The same password again: ", console: console, inbox: inbox)
            if (try? GamePassword(second)) == password {
                if let hint = shortPasswordHint(first) { console.print(hint) }
                return password
            }
            console.print("The two passwords differ; type them again.")
        }
    }

    /// Passwords shorter than this many characters get a hint (they are taken all the same).
    static let comfortableLength = 8

    /// The hint for a password as short as `text`; nil for one of ``comfortableLength`` or more.
    static func shortPasswordHint(_ text: String) -> String? {
        guard text.count < comfortableLength else { return nil }
        return "That password is short (\(GameText.count(text.count, "character"))): the game lets each network try only a few passwords a minute, but one of \(comfortableLength) characters or more is safer."
    }

    /// The next line typed, hidden, after `prompt`.
    /// - Throws: ``AppFailure`` when input ends or is interrupted instead.
    static func readHidden(_ prompt: String, console: any Console, inbox: Inbox) async throws(AppFailure) -> String {
        console.hideNextLine(prompt: prompt)
        guard let line = await inbox.nextLine() else { throw AppFailure("No password given; the game was not started.") }
        return line
    }
}
