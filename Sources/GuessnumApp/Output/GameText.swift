import Foundation
import GuessnumGame
import GuessnumTerminal
import Multipeer
import Rooms
import SafeText

/// How game events read: each one a ``GuessnumTerminal/ScreenLine``, the sentence people read
/// and the JSON event (see ``JSONLines``) that `--json`'s console writes instead.
public struct GameText: Sendable {
    let style: TextStyle
    /// This side's identity (its peer identity, which the game uses for its player), so its own
    /// lines read "you guessed …" from the first one on, even before the welcome arrives.
    let me: UUID

    /// Text for a screen in `style` (plain with `json`), whose own player is `me`.
    public init(style: TextStyle, json: Bool, me: UUID) {
        self.style = json ? .plain : style
        self.me = me
    }

    func isMe(_ player: PlayerRef) -> Bool { player.id == me }

    private func name(_ player: PlayerRef) -> String {
        isMe(player) ? "you" : style.bold(player.displayText)
    }

    /// A chat line: "[chat] bob: hi", or "[host] alice: hi" when the host said it. The mark
    /// comes first and no other line starts with it, so a player's chat cannot pass for the
    /// host's or for the program's own lines, with or without colours (names are unique by
    /// how they look, and cannot hide invisible characters).
    func chat(_ chat: RelayedChat, fromHost: Bool) -> ScreenLine {
        .event("chat", chat) {
            let mark = fromHost ? Self.hostChatMark : Self.chatMark
            return "\(style.dim(mark)) \(name(chat.from)): \(TerminalText.sanitized(chat.text))"
        }
    }

    /// What starts a player's chat line.
    static let chatMark = "[chat]"
    /// What starts the host's chat line.
    static let hostChatMark = "[host]"

    func joined(_ event: PlayerJoined) -> ScreenLine {
        .event("joined", event) {
            membership(event.player, "joined", event.playerCount)
        }
    }

    func left(_ event: PlayerLeft) -> ScreenLine {
        .event("left", event) {
            membership(event.player, event.removedByHost == true ? "was removed by the host" : "left", event.playerCount)
        }
    }

    func away(_ event: PlayerAway) -> ScreenLine {
        .event("away", event) {
            style.dim("\(event.player.displayText) is away: the connection dropped; the seat is kept for \(event.holdSeconds) s.")
        }
    }

    func back(_ event: PlayerBack) -> ScreenLine {
        .event("back", event) {
            style.dim("\(event.player.displayText) is back.")
        }
    }

    /// Before the lines a player missed while away; nil when nothing happened meanwhile.
    func caughtUp(_ caughtUp: CaughtUp) -> ScreenLine? {
        guard let missed = caughtUp.missed, missed > 0 else { return nil }
        return .event("caughtUp", caughtUp) { style.dim("While you were away (\(Self.count(missed, "event"))):") }
    }

    /// After the fresh welcome of a host whose program was restarted while the player was away
    /// (its numbering went on past a gap, so how much was missed is not known).
    func restarted() -> ScreenLine {
        .event("caughtUp", CaughtUp()) {
            style.dim("The host's program was restarted while you were away; the game is shown as it is now.")
        }
    }

    /// After the fresh welcome that replaced what a player missed: how much is not shown.
    func skipped(_ count: UInt64) -> ScreenLine {
        .event("caughtUp", CaughtUp(skipped: count)) {
            return style.dim("\(Self.count(Int(clamping: count), "event")) happened while you were away; the host no longer kept them, so the game is shown as it is now.")
        }
    }

    /// "bob joined (3 playing)."
    private func membership(_ player: PlayerRef, _ verb: String, _ count: Int) -> String {
        style.dim("\(player.displayText) \(verb) (\(count) playing).")
    }

    func renamed(_ event: PlayerRenamed) -> ScreenLine {
        .event("renamed", event) {
            return style.dim("\(TerminalText.sanitized(event.previousName)) is now \(event.player.displayText).")
        }
    }

    /// "10.0.0.2, key 1a2b3c4d": where a player's link came from (when known) and the start of
    /// their key's fingerprint (their identity), to tell two players of one name apart.
    static func whereFrom(_ id: UUID, address: String?) -> String {
        let key = "key " + id.uuidString.lowercased().filter { $0 != "-" }.prefix(8)
        guard let address else { return key }
        return "\(TerminalText.sanitized(address)), \(key)"
    }

    /// "bob (10.0.0.2, key 1a2b3c4d)": a removed player, told apart from others of that name.
    static func removed(_ removal: PlayerRemoval) -> String {
        "\(removal.player.displayText) (\(whereFrom(removal.player.id, address: removal.address)))"
    }

    /// Guests a private game turned away for the password, from one network: "A guest from
    /// 10.0.0.2 was turned away: wrong password.", then at most a line a minute with the count.
    func passwordRefusals(_ refusals: PasswordRefusals) -> String {
        let network = TerminalText.sanitized(refusals.network)
        let reasons: [(PasswordRefusals.Reason, String, String)] = [
            (.wrong, "wrong password", "with a wrong password"),
            (.tooMany, "too many wrong passwords lately", "after too many wrong passwords"),
        ]
        guard refusals.isSummary else {
            let reason = reasons.first { refusals.counts[$0.0, default: 0] > 0 }?.1 ?? "wrong password"
            return style.yellow("A guest from \(network) was turned away: \(reason).")
        }
        let parts = reasons.compactMap { reason, _, counted in refusals.counts[reason].map { "\($0) \(counted)" } }
        let total = refusals.total
        return style.yellow("In the last minute \(Self.count(total, "more guest")) from \(network) \(total == 1 ? "was" : "were") turned away: \(parts.joined(separator: ", ")).")
    }

    /// What a player reads on joining: the code the host sees next to the player's name.
    func verificationCode(_ code: String, host: String) -> ScreenLine {
        .event("verificationCode", VerificationLine(host: host, code: code)) {
            return style.dim("Verification code with \(TerminalText.sanitized(host)): \(code). \(TerminalText.sanitized(host)) sees the same digits next to your name in /players; different digits mean someone is in between.")
        }
    }

    /// What everyone reads when a game ends: the final scores, or that nobody scored (nil).
    static func gameOver(_ scores: String?) -> String {
        scores.map { "The game is over. Final scores:\n" + $0 } ?? "The game is over. Nobody scored."
    }

    /// "1 guess", "3 guesses".
    static func count(_ number: Int, _ singular: String, _ plural: String? = nil) -> String {
        Wording.count(number, singular, plural)
    }

    /// "a", "a or b", "a, b or c" (`or`), or with "and".
    static func list(_ items: [String], or: Bool) -> String {
        guard let last = items.last, items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + (or ? " or " : " and ") + last
    }
}

private struct VerificationLine: Encodable {
    let host: String
    let code: String
}
