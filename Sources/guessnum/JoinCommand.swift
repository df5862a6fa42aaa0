import ArgumentParser
import GuessnumApp
import GuessnumGame
import Logging
import Multipeer

/// `guessnum join`: find a game nearby (or go straight to an address) and play.
struct JoinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join",
        abstract: "Join a game: pick one from the games nearby, or give its address."
    )

    @Option(help: "Your name as other players see it (default: your login name).")
    var name: String?

    @Option(help: "Join the game of this name as soon as it is found (for scripts).")
    var game: String?

    @Argument(help: "Join the game at this address, or with this join code (as `guessnum host` prints them), without looking for games.", transform: JoinArgument.parse)
    var target: JoinArgument?

    // The default is written in the help (ArgumentParser's man page omits defaults).
    @Option(name: .customLong("timeout"), parsing: .unconditional, help: "Seconds to wait for a host to answer, or for --game to be found (default: 30).")
    var timeoutGiven: Int?
    var timeout: Int { timeoutGiven ?? 30 }

    @OptionGroup var dns: SiteDNSOptions

    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard timeout >= 1 else { throw ValidationError("--timeout must be at least 1 second.") }
        if let name { try Self.check(name: name) }
    }

    func run() async throws {
        let logs = LogDestination()
        LoggingSystem.bootstrapTerminal(level: output.logLevel, destination: logs)
        try await CommandRunner.run {
            let me = try LocalPlayer(name: name, role: .guest)
            let failure = try await GuestREPL.play(
                as: me, session: try me.session(.room), target: target, gameName: game, discovery: try dns.discovery(), style: output.style,
                json: output.json, timeout: .seconds(timeout), logs: logs)
            withExtendedLifetime(me) {}
            if let failure { throw failure }
        }
    }
}

extension JoinCommand {
    /// Checks a `--name` against the game's own rule (no leading “[”), so such a name is a usage
    /// error (exit 64) before anything starts, not a refusal from the host. The session's rules
    /// are checked, with their sentence, where the peer is made.
    static func check(name: String) throws {
        guard (try? PeerID.validate(displayName: name)) != nil else { return }
        do { try RoomProtocol.checkName(name) } catch { throw ValidationError(error.message) }
    }
}
