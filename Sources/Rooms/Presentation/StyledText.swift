/// Text as a game writes it for a screen: plain runs, some marked with how they stand out
/// (``Weight``, ``Colour``). The program makes each run safe to print and styles it as its
/// screen can (or not at all: `--no-color`, `--json`, a pipe).
///
/// ```swift
/// let line: StyledText = "\(name.strong) guessed 7: " + StyledText("correct!", colour: .success)
/// ```
public struct StyledText: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// How heavy a run reads.
    public enum Weight: Sendable, Hashable {
        /// Stands out (a name).
        case strong
        /// Recedes (an aside, a membership change).
        case faint
    }

    /// What a run's colour says.
    public enum Colour: Sendable, Hashable {
        /// Good news (a win).
        case success
        /// News about the game itself (a round starting or ending).
        case news
        /// Something to look at (a guess out of range).
        case warning
        /// Something wrong (a host caught cheating).
        case alarm
    }

    /// A stretch of text marked one way.
    public struct Run: Sendable, Hashable {
        /// The text, as yet unsanitised.
        public var text: String
        public var weight: Weight?
        public var colour: Colour?
    }

    /// The runs, in order.
    public private(set) var runs: [Run]

    /// `text`, marked as given.
    public init(_ text: String, weight: Weight? = nil, colour: Colour? = nil) {
        runs = text.isEmpty ? [] : [Run(text: text, weight: weight, colour: colour)]
    }

    public init(stringLiteral text: String) {
        self.init(text)
    }

    public init(stringInterpolation: Interpolation) {
        runs = stringInterpolation.runs
    }

    /// The text without its marks.
    public var plain: String { runs.map(\.text).joined() }

    /// This text, standing out where it is not marked otherwise.
    public var strong: StyledText { marked(weight: .strong) }
    /// This text, receding where it is not marked otherwise.
    public var faint: StyledText { marked(weight: .faint) }

    /// This text in `colour` where it has none of its own.
    public func coloured(_ colour: Colour) -> StyledText {
        var text = self
        for index in text.runs.indices where text.runs[index].colour == nil { text.runs[index].colour = colour }
        return text
    }

    private func marked(weight: Weight) -> StyledText {
        var text = self
        for index in text.runs.indices where text.runs[index].weight == nil { text.runs[index].weight = weight }
        return text
    }

    public static func + (lhs: StyledText, rhs: StyledText) -> StyledText {
        var text = lhs
        text.runs += rhs.runs
        return text
    }

    public static func += (lhs: inout StyledText, rhs: StyledText) {
        lhs.runs += rhs.runs
    }

    /// Builds a text from literal parts, strings and other styled texts.
    public struct Interpolation: StringInterpolationProtocol {
        var runs: [Run] = []

        public init(literalCapacity: Int, interpolationCount: Int) {}

        public mutating func appendLiteral(_ literal: String) {
            append(Run(text: literal))
        }

        public mutating func appendInterpolation(_ text: StyledText) {
            for run in text.runs { append(run) }
        }

        public mutating func appendInterpolation<Value>(_ value: Value) {
            append(Run(text: String(describing: value)))
        }

        private mutating func append(_ run: Run) {
            guard !run.text.isEmpty else { return }
            if let last = runs.last, last.weight == run.weight, last.colour == run.colour {
                runs[runs.count - 1].text += run.text
            } else {
                runs.append(run)
            }
        }
    }
}
