import Foundation
import GuessnumTerminal

/// `--json`: every event one JSON object a line, `{"event": NAME, …}`, for scripts.
enum JSONLines {

    /// `{"event": name, "data": payload}` on one line, `event` first.
    static func line<Payload: Encodable>(_ name: String, _ payload: Payload) -> String {
        "{\"event\":\(encode(name)),\"data\":\(encode(payload))}"
    }

    /// A sentence for people, as `{"event": "message", "text": …}`.
    static func message(_ text: String) -> String {
        "{\"event\":\"message\",\"text\":\(encode(text))}"
    }

    private static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}

extension ScreenLine {
    /// The event `name` carrying `payload`, read by people as `text()`.
    static func event<Payload: Encodable & Sendable>(_ name: String, _ payload: Payload, text: () -> String) -> ScreenLine {
        ScreenLine(text()) { JSONLines.line(name, payload) }
    }
}

/// A console for `--json`: what a screen shows (``GuessnumTerminal/ScreenLine``) is written as
/// its event, and every other message as a `message` event, so each line of standard output is
/// one JSON object. Diagnostics go to standard error as they are.
public final class JSONConsole: Console {
    private let inner: any Console

    /// A console that writes through `inner`.
    public init(wrapping inner: any Console) {
        self.inner = inner
    }

    public var isInteractive: Bool { false }

    public func print(_ text: String) {
        inner.print(JSONLines.message(text))
    }

    public func show(_ line: ScreenLine) {
        inner.print(line.event?() ?? JSONLines.message(line.text))
    }

    public func printDiagnostic(_ text: String) {
        inner.printDiagnostic(text)
    }

    public func setPrompt(_ prompt: String) {}

    public func hideNextLine(prompt: String) {}

    public func resumeInput() {}

    public func close() { inner.close() }
}
