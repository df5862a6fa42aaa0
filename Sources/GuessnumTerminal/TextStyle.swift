import Foundation

/// The colour policy: ANSI styles when they will be seen, plain text otherwise.
public struct TextStyle: Sendable, Equatable {
    /// Whether the style functions add ANSI escape sequences.
    public let isColored: Bool

    public init(isColored: Bool) {
        self.isColored = isColored
    }

    /// No colour at all.
    public static let plain = TextStyle(isColored: false)

    /// Colour only when standard output is a terminal, `NO_COLOR` is unset or empty
    /// (https://no-color.org), `TERM` is not `dumb` and `noColorFlag` (a `--no-color` option) is off.
    public static func detect(
        noColorFlag: Bool,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> TextStyle {
        detect(noColorFlag: noColorFlag, environment: environment, outputIsTerminal: isatty(STDOUT_FILENO) == 1)
    }

    /// The rule of ``detect(noColorFlag:environment:)`` with the terminal test given.
    public static func detect(noColorFlag: Bool, environment: [String: String], outputIsTerminal: Bool) -> TextStyle {
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        let dumb = environment["TERM"] == "dumb"
        return TextStyle(isColored: outputIsTerminal && !noColor && !dumb && !noColorFlag)
    }

    public func bold(_ s: String) -> String { wrap(s, "1", "22") }
    public func dim(_ s: String) -> String { wrap(s, "2", "22") }
    public func green(_ s: String) -> String { wrap(s, "32", "39") }
    public func red(_ s: String) -> String { wrap(s, "31", "39") }
    public func yellow(_ s: String) -> String { wrap(s, "33", "39") }
    public func cyan(_ s: String) -> String { wrap(s, "36", "39") }

    /// Each style ends with its own reset (22 for intensity, 39 for colour), so styles nest.
    private func wrap(_ s: String, _ on: String, _ off: String) -> String {
        isColored ? "\u{1B}[\(on)m\(s)\u{1B}[\(off)m" : s
    }
}
