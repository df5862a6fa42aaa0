import Foundation
import GuessnumGame
import GuessnumTerminal
import Multipeer
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

    func verdict(_ judged: JudgedGuess) -> ScreenLine {
        .event("verdict", judged) {
            let who = name(judged.player)
            switch judged.verdict {
            case .correct:
                return style.green("\(who) guessed \(judged.guess): correct!") + (who == "you" ? " You win round \(judged.round)." : "")
            case .tooLow, .tooHigh:
                return "\(who) guessed \(judged.guess): \(judged.verdict)"
            case .outOfRange, .roundOver:
                return style.yellow("\(who) guessed \(judged.guess): \(judged.verdict.hint)")
            }
        }
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

    /// The message shown when someone is welcomed into a game.
    func welcome(_ welcome: WelcomeMessage) -> String {
        "Welcome, \(welcome.you.displayText)! Round \(welcome.game.round): numbers \(welcome.game.range)."
            + (welcome.game.hostChoseSecret == true ? " " + Self.chosenSecret : "")
    }

    /// What a player is told when the host picks the secrets itself.
    static let chosenSecret = "The host chooses the secrets in this game, so the fairness check proves only that a secret did not change during its round."

    func renamed(_ event: PlayerRenamed) -> ScreenLine {
        .event("renamed", event) {
            return style.dim("\(TerminalText.sanitized(event.previousName)) is now \(event.player.displayText).")
        }
    }

    func roundStarted(_ event: RoundStarted) -> ScreenLine {
        .event("roundStarted", event) {
            return style.cyan("Round \(event.round) starts: guess a number from \(event.range.lowerBound) to \(event.range.upperBound).")
                + style.dim(" (commitment \(event.commitment.hex.prefix(16))…\(event.hostChoseSecret == true ? "; the host chose this secret" : ""))")
        }
    }

    /// What the host reads when its game goes on from its store: the round it resumed at, not a
    /// new one, and how many seats are held for players who have not come back yet.
    func resumed(_ event: RoundStarted, seatsHeld: Int) -> ScreenLine {
        .event("resumed", event) {
            let held = seatsHeld == 0 ? "" : " " + (seatsHeld == 1 ? "1 seat is" : "\(seatsHeld) seats are") + " held for players who have not come back yet."
            return style.cyan("The game resumed at round \(event.round): numbers from \(event.range.lowerBound) to \(event.range.upperBound).")
                + style.dim(" (commitment \(event.commitment.hex.prefix(16))…\(event.hostChoseSecret == true ? "; the host chose this secret" : ""))") + held
        }
    }

    func roundWon(_ event: RoundWon) -> ScreenLine {
        .event("roundWon", event) {
            let secret = "The secret was \(event.secret)"
            guard let winner = event.winner else {
                return style.cyan("Round \(event.round) ended without a winner. \(secret).")
            }
            let guesses = event.winningGuesses.map { " with " + Self.count($0, "guess", "guesses") } ?? ""
            return style.cyan("\(name(winner) == "you" ? "You" : name(winner)) won round \(event.round)\(guesses). \(secret).")
        }
    }

    func fairness(_ check: FairnessCheck) -> ScreenLine {
        .event("fairness", FairnessLine(round: check.round, honest: check.isHonest, problems: check.problems, hostChoseSecret: check.hostChoseSecret)) {
            guard check.isHonest else { return style.red("Round \(check.round) was NOT fair: \(check.problems.joined(separator: "; ")).") }
            guard !check.hostChoseSecret else {
                return style.dim("Round \(check.round): the reveal matches the commitment and every verdict; the host chose this secret itself, so this shows only that it did not change during the round.")
            }
            return style.dim("Round \(check.round) was fair: the reveal matches the commitment and every verdict.")
        }
    }

    /// The `/players` table. `codes` holds each player's verification code by identity (the
    /// host's view: a column appears when any row has one). Rows whose names look alike (a player
    /// gone and another under the same name) are told apart by the start of each one's key, and
    /// the address it came from when `addresses` has it.
    func players(_ rows: [PlayerRow], codes: [UUID: String] = [:], addresses: [UUID: String] = [:]) -> ScreenLine {
        .event("players", rows.map { PlayerLine(name: $0.name, state: $0.presence.rawValue, wins: $0.wins, guessesThisRound: $0.guessesThisRound, verificationCode: codes[$0.id]) }) {
            guard !rows.isEmpty else { return "No players yet." }
            var alike: [String: Int] = [:]
            for row in rows { alike[ConfusableSkeleton.of(row.name), default: 0] += 1 }
            let names = Dictionary(uniqueKeysWithValues: rows.map { row in
                let name = TerminalText.sanitized(row.name)
                guard alike[ConfusableSkeleton.of(row.name), default: 0] > 1 else { return (row.id, name) }
                return (row.id, "\(name) (\(Self.whereFrom(row.id, address: addresses[row.id])))")
            })
            let width = max("name".count, names.values.map(\.count).max() ?? 0)
            let showsCodes = rows.contains { codes[$0.id] != nil }
            var lines = ["\(pad("name", width))  state       wins  guesses this round" + (showsCodes ? "  code" : "")]
            // By name; rows of one name in the order they appeared.
            for row in rows.enumerated().sorted(by: { ($0.element.name, $0.offset) < ($1.element.name, $1.offset) }).map(\.element) {
                let code = showsCodes ? "  " + pad(String(row.guessesThisRound), "guesses this round".count) + "  " + (codes[row.id] ?? "") : "  \(row.guessesThisRound)"
                lines.append("\(pad(names[row.id] ?? "", width))  \(pad(row.presence.rawValue, 10))  \(pad(String(row.wins), 4))\(code)")
            }
            return lines.joined(separator: "\n")
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

    func scoreboard(_ entries: [Scoreboard.Entry]) -> ScreenLine {
        .event("scoreboard", entries) {
            guard !entries.isEmpty else { return "No scores yet." }
            return entries.enumerated().map { index, entry in
                "\(index + 1). \(entry.player.displayText): \(Self.count(entry.wins, "win")), \(Self.count(entry.guesses, "guess", "guesses"))"
                    + (entry.bestRound.map { ", best round \(Self.count($0, "guess", "guesses"))" } ?? "")
            }.joined(separator: "\n")
        }
    }

    func history(_ judgements: [Judgement]) -> ScreenLine {
        .event("history", judgements) {
            return judgements.isEmpty ? "No guesses yet this round." : judgements.map(\.displayText).joined(separator: "\n")
        }
    }

    /// `/history` in round `round`: its guesses, or while it has none, the last round's,
    /// labelled with how it ended (so the last round can still be seen once the next starts).
    func history(_ judgements: [Judgement], round: Int, previous: FinishedRound?) -> ScreenLine {
        guard judgements.isEmpty, let previous, previous.number < round else { return history(judgements) }
        return .event("history", judgements) { previousRound(previous, round: round) }
    }

    /// The last round's guesses and how it ended, while round `round` has none.
    private func previousRound(_ previous: FinishedRound, round: Int) -> String {
        var ended = ""
        if let reveal = previous.reveal {
            let winner = reveal.winner.map { isMe($0) ? "you won it" : "\($0.displayText) won it" } ?? "nobody won it"
            ended = " (\(winner); the secret was \(reveal.secret))"
        }
        let lines = previous.history.isEmpty ? ["Nobody guessed."] : previous.history.map(\.displayText)
        return (["No guesses yet in round \(round). Round \(previous.number)\(ended):"] + lines).joined(separator: "\n")
    }

    /// The scoreboard when a game ends, for everyone.
    func finalScores(_ entries: [Scoreboard.Entry]) -> ScreenLine {
        .event("finalScores", entries) {
            Self.gameOver(entries.isEmpty ? nil : scoreboard(entries).text)
        }
    }

    /// What everyone reads when a game ends: the final scores, or that nobody scored (nil).
    static func gameOver(_ scores: String?) -> String {
        scores.map { "The game is over. Final scores:\n" + $0 } ?? "The game is over. Nobody scored."
    }

    /// "1 guess", "3 guesses".
    static func count(_ number: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(number) \(number == 1 ? singular : plural ?? singular + "s")"
    }

    /// "a", "a or b", "a, b or c" (`or`), or with "and".
    static func list(_ items: [String], or: Bool) -> String {
        guard let last = items.last, items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + (or ? " or " : " and ") + last
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}

private struct FairnessLine: Encodable {
    let round: Int
    let honest: Bool
    let problems: [String]
    let hostChoseSecret: Bool
}

private struct PlayerLine: Encodable {
    let name: String
    let state: String
    let wins: Int
    let guessesThisRound: Int
    let verificationCode: String?
}

private struct VerificationLine: Encodable {
    let host: String
    let code: String
}
