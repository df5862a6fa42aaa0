import GuessnumTerminal
import Testing

@Suite(.timeLimit(.minutes(1))) struct TextStyleTests {
    @Test func colourOnlyOnATerminalWithoutNoColorOrFlag() {
        #expect(TextStyle.detect(noColorFlag: false, environment: [:], outputIsTerminal: true).isColored)
        #expect(!TextStyle.detect(noColorFlag: false, environment: [:], outputIsTerminal: false).isColored)
        #expect(!TextStyle.detect(noColorFlag: true, environment: [:], outputIsTerminal: true).isColored)
    }

    @Test func noColorCountsOnlyWhenNotEmpty() {
        #expect(!TextStyle.detect(noColorFlag: false, environment: ["NO_COLOR": "1"], outputIsTerminal: true).isColored)
        #expect(!TextStyle.detect(noColorFlag: false, environment: ["NO_COLOR": "0"], outputIsTerminal: true).isColored)
        #expect(TextStyle.detect(noColorFlag: false, environment: ["NO_COLOR": ""], outputIsTerminal: true).isColored)
    }

    @Test func dumbTerminalGetsNoColour() {
        #expect(!TextStyle.detect(noColorFlag: false, environment: ["TERM": "dumb"], outputIsTerminal: true).isColored)
        #expect(TextStyle.detect(noColorFlag: false, environment: ["TERM": "xterm-256color"], outputIsTerminal: true).isColored)
    }

    @Test func detectWithoutTerminalArgumentLooksAtStandardOutput() {
        // The test runner's standard output is not a terminal when run by `swift test` in CI;
        // either way the flag and NO_COLOR always win.
        #expect(!TextStyle.detect(noColorFlag: true).isColored)
        #expect(!TextStyle.detect(noColorFlag: false, environment: ["NO_COLOR": "yes"]).isColored)
    }

    @Test func uncolouredStyleIsTheIdentity() {
        let style = TextStyle.plain
        for function in [style.bold, style.dim, style.green, style.red, style.yellow, style.cyan] {
            #expect(function("text ✓") == "text ✓")
        }
    }

    @Test func colouredStylesUseTheirOwnResetSoTheyNest() {
        let style = TextStyle(isColored: true)
        #expect(style.bold("b") == "\u{1B}[1mb\u{1B}[22m")
        #expect(style.dim("d") == "\u{1B}[2md\u{1B}[22m")
        #expect(style.green("g") == "\u{1B}[32mg\u{1B}[39m")
        #expect(style.red("r") == "\u{1B}[31mr\u{1B}[39m")
        #expect(style.yellow("y") == "\u{1B}[33my\u{1B}[39m")
        #expect(style.cyan("c") == "\u{1B}[36mc\u{1B}[39m")
        #expect(style.bold(style.green("x")) == "\u{1B}[1m\u{1B}[32mx\u{1B}[39m\u{1B}[22m")
    }
}
