import Foundation
import GuessnumTerminal
import SafeText

struct DemoOptions: Sendable {
    var ticks = false
    /// Ticks printed as diagnostics (standard error) instead of messages.
    var diagnosticTicks = false
    var historyPath: String?
    var prompt = "demo> "

    init<Arguments: Sequence<String>>(_ arguments: Arguments) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--ticks": ticks = true
            case "--diagnostic-ticks": ticks = true; diagnosticTicks = true
            case "--history": historyPath = iterator.next()
            case "--prompt": prompt = iterator.next() ?? prompt
            default:
                FileHandle.standardError.write(Data("ConsoleDemo: unknown argument \(argument)\n".utf8))
                exit(2)
            }
        }
    }
}

enum Demo {
    static let completions = ["/help", "/players", "/prompt", "/secret", "/visible", "/quit"]

    static func run(_ options: DemoOptions) async {
        let (inputs, handler) = ConsoleInput.makeStream()
        let console = Consoles.make(
            prompt: options.prompt,
            history: options.historyPath.map { HistoryStore(fileURL: URL(fileURLWithPath: $0)) },
            completions: completions,
            keepsInHistory: { !$0.hasPrefix("/forget") },
            input: handler
        )
        let kind = console.isInteractive ? "readline" : "plain"
        console.print("console: \(kind)")
        if options.ticks { startTicking(console, diagnostics: options.diagnosticTicks) }
        var ended = "end of input"
        var secretAsked = false
        for await input in inputs {
            if case .interrupted(let cleared) = input {
                console.print(cleared ? "(line cleared)" : "(interrupted)")
                continue
            }
            guard case .line(let line) = input else { break }
            if secretAsked {
                secretAsked = false
                console.print("the secret has \(line.count) characters")
                continue
            }
            if line == "/secret" {
                secretAsked = true
                console.hideNextLine(prompt: "secret> ")
                continue
            }
            if line.trimmingCharacters(in: .whitespaces) == "/quit" {
                ended = "quit"
                break
            }
            if line.hasPrefix("/complete ") {
                let words = line.split(separator: " ").dropFirst().map(String.init)
                console.complete(also: words)
                console.print("completing also: \(words.joined(separator: " "))")  // a test waits for it
                continue
            }
            if line.hasPrefix("/prompt ") {
                console.setPrompt(String(line.dropFirst("/prompt ".count)))
                continue
            }
            console.print("you said: \(TerminalText.sanitized(line))")
        }
        console.close()
        console.close()
        console.print("bye (\(ended))")
        exit(0)
    }

    /// Prints "tick N" from a background thread every 300 ms (to standard error with
    /// `diagnostics`).
    private static func startTicking(_ console: any Console, diagnostics: Bool) {
        let thread = Thread {
            var count = 0
            while true {
                Thread.sleep(forTimeInterval: 0.3)
                count += 1
                if diagnostics { console.printDiagnostic("tick \(count)") } else { console.print("tick \(count)") }
            }
        }
        thread.start()
    }
}
