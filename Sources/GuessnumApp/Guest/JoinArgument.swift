import Multipeer
import SafeText

/// What `guessnum join` is given instead of a game to look for: an address, or a join code.
public enum JoinArgument: Sendable {
    /// The game at this address.
    case address(Endpoint)
    /// The game of this join code's host.
    case code(JoinCode)

    /// A join code (it starts with `gn1-`), else `ADDR:PORT`; for a word that could be a game's
    /// name, the sentence says how to join the game of that name.
    /// - Throws: ``AppFailure`` (usage), or the code's or address's own error.
    public static func parse(_ text: String) throws -> JoinArgument {
        if text.lowercased().hasPrefix(JoinCode.prefix) { return .code(try JoinCode(parsing: text)) }
        do { return .address(try Endpoint(parsing: text)) } catch {
            guard !text.contains(":"), (try? PeerID.validate(displayName: text)) != nil else { throw error }
            throw AppFailure("\(error.message) To join the game called \(TerminalText.quoted(text)), use: \(ProgramCommand.current()) join --game \(text)", .usage, underlying: error)
        }
    }
}
