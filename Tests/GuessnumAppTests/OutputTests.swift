import Foundation
@testable import GuessnumApp
import GuessnumGame
import GuessnumTerminal
import Logging
import Multipeer
import Testing

@Suite("What the program prints: sentences, JSON lines, log lines", .timeLimit(.minutes(1)))
struct OutputTests {
    let me = UUID()
    let bob = PlayerRef(id: UUID(), name: "bob")

    @Test("Chat lines start with a mark no other line has: [chat] for players, [host] for the host, coloured or not", arguments: [false, true])
    func chatMarks(colored: Bool) {
        let text = GameText(style: TextStyle(isColored: colored), json: false, me: me)
        let chat = RelayedChat(sequence: 1, from: bob, text: "Round 2 starts: guess a number from 1 to 2.")
        let plain = { (line: String) in line.replacing(/\u{1B}\[[0-9;]*m/, with: "") }
        #expect(plain(text.chat(chat, fromHost: false).text) == "[chat] bob: Round 2 starts: guess a number from 1 to 2.")
        let host = RelayedChat(sequence: 2, from: PlayerRef(id: UUID(), name: "alice"), text: "hi")
        #expect(plain(text.chat(host, fromHost: true).text) == "[host] alice: hi")
        let started = RoundStarted(sequence: 3, round: 2, range: .standard, commitment: Commitment(secret: 5, salt: Salt.random()), hostChoseSecret: false)
        #expect(!plain(text.screenLine(GuessText.roundStarted(started)).text).hasPrefix("["), "the program's own lines never start like chat")
    }

    @Test("--json: events are JSON objects with their data; every other message becomes a message event")
    func jsonLines() throws {
        let text = GameText(style: TextStyle(isColored: true), json: true, me: me)
        let verdict = JudgedGuess(sequence: 3, round: 1, judgement: Judgement(player: bob, guess: 50, verdict: .tooHigh))
        let inner = ScriptedConsole()
        let console = JSONConsole(wrapping: inner)
        console.print(text.screenLine(GuessText.verdict(verdict, to: text.reader)))
        console.print("Welcome, bob!")
        console.printDiagnostic("guessnum: warning: something")
        let objects = try inner.lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.count == 2)
        #expect(objects[0]["event"] as? String == "verdict")
        let data = try #require(objects[0]["data"] as? [String: Any])
        #expect(data["guess"] as? Int == 50 && data["player"] != nil && data["round"] as? Int == 1, "\(data)")
        #expect(objects[1]["event"] as? String == "message" && objects[1]["text"] as? String == "Welcome, bob!")
        #expect(inner.diagnosticLines == ["guessnum: warning: something"], "diagnostics stay on standard error, not JSON")
        #expect(!console.isInteractive)
    }

    @Test("Sentences: your own guesses read as yours, others' names are made safe, colour only when asked")
    func sentences() {
        let plain = GameText(style: .plain, json: false, me: me)
        let mine = JudgedGuess(sequence: 1, round: 2, judgement: Judgement(player: PlayerRef(id: me, name: "alice"), guess: 7, verdict: .correct))
        #expect(plain.screenLine(GuessText.verdict(mine, to: plain.reader)).text == "you guessed 7: correct! You win round 2.")
        let eve = PlayerRef(id: UUID(), name: "eve\u{1B}[2J")
        #expect(plain.joined(PlayerJoined(sequence: 1, player: eve, playerCount: 2)).text == "eve\u{FFFD}[2J joined (2 playing).")
        let coloured = GameText(style: TextStyle(isColored: true), json: false, me: me)
        #expect(coloured.left(PlayerLeft(sequence: 1, player: bob, playerCount: 0)).text == "\u{1B}[2mbob left (0 playing).\u{1B}[22m")
    }

    @Test("A game's styled text: each run made safe to print, then styled; the game's line breaks kept")
    func styledText() {
        let coloured = GameText(style: TextStyle(isColored: true), json: false, me: me)
        let line: StyledText = "\(StyledText("eve\u{1B}[2J", weight: .strong)) wins" + StyledText("\nnext", colour: .news)
        #expect(coloured.styled(line) == "\u{1B}[1meve\u{FFFD}[2J\u{1B}[22m wins\u{1B}[36m\nnext\u{1B}[39m")
        let plain = GameText(style: .plain, json: false, me: me)
        #expect(plain.styled(line) == "eve\u{FFFD}[2J wins\nnext")
    }

    @Test("Log lines: level, message, sorted metadata and the logger's label; below the level nothing")
    func logLines() {
        let console = ScriptedConsole()
        let destination = LogDestination()
        destination.attach(console)
        var logger = Logger(label: "multipeer.session") { ConsoleLogHandler(label: $0, level: .notice, destination: destination) }
        logger[metadataKey: "session"] = "1"
        logger.notice("A peer sent a malformed frame.", metadata: ["peer": "127.0.0.1:5000", "code": "malformedFrame"])
        logger.info("Listening.")
        logger.debug("Accepted a connection.")
        #expect(console.diagnosticLines == [
            "guessnum: notice: A peer sent a malformed frame. code=malformedFrame peer=127.0.0.1:5000 session=1 (multipeer.session)"
        ])
        #expect(console.lines.isEmpty, "log lines never go to standard output")
    }
}
