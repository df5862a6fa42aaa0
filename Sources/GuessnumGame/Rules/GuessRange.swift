/// The numbers a secret is drawn from and guesses must fall in: both bounds included.
///
/// Parse one from what a person types with ``init(parsing:)`` (`1-100`, `-50-50`,
/// `-100--10`, `1..100`, `1 – 100`), or build one from bounds with ``init(_:_:)``. A range holds
/// at least two numbers and its bounds stay within ±``maximumMagnitude``, so every number in it
/// survives a trip through JSON in any language.
public struct GuessRange: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The largest magnitude a bound may have: 10^15, below 2^53.
    public static let maximumMagnitude: Int64 = 1_000_000_000_000_000

    /// The default range, 1–100.
    public static let standard = GuessRange(unchecked: 1, 100)

    /// The smallest number in the range.
    public let lowerBound: Int64
    /// The largest number in the range.
    public let upperBound: Int64

    /// Creates the range `lowerBound...upperBound`.
    /// - Throws: ``Rooms/GameError/Code/invalidRange`` when reversed, of one number, or beyond
    ///   ±``maximumMagnitude``.
    public init(_ lowerBound: Int64, _ upperBound: Int64) throws(GameError) {
        if lowerBound.magnitude > Self.maximumMagnitude.magnitude || upperBound.magnitude > Self.maximumMagnitude.magnitude {
            throw .absurdRange("\(lowerBound)-\(upperBound)")
        }
        if lowerBound > upperBound { throw .reversedRange(lowerBound, upperBound) }
        if lowerBound == upperBound { throw .singleNumberRange(lowerBound) }
        self.init(unchecked: lowerBound, upperBound)
    }

    /// Parses `LOW-HIGH` (also with `..` or an en dash between, and spaces around it).
    /// - Throws: ``Rooms/GameError/Code/invalidRange`` with a sentence that says what is wrong.
    public init(parsing text: String) throws(GameError) {
        let trimmed = text.trimmingWhitespace
        if trimmed.isEmpty { throw .emptyRange }
        var scanner = RangeScanner(trimmed)
        guard let low = scanner.number(), scanner.separator(), let high = scanner.number(), scanner.isAtEnd else {
            throw .unreadableRange(trimmed)
        }
        guard let lower = low.value, let upper = high.value else { throw .absurdRange(trimmed) }
        try self.init(lower, upper)
    }

    private init(unchecked lowerBound: Int64, _ upperBound: Int64) {
        self.lowerBound = lowerBound
        self.upperBound = upperBound
    }

    /// Whether `number` lies in the range.
    public func contains(_ number: Int64) -> Bool {
        lowerBound <= number && number <= upperBound
    }

    /// How many numbers the range holds.
    public var count: Int64 { upperBound - lowerBound + 1 }

    /// "1–100", with an en dash, as the game writes ranges in its sentences.
    public var description: String { "\(lowerBound)–\(upperBound)" }

    private enum CodingKeys: String, CodingKey { case lower, upper }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let lower = try container.decode(Int64.self, forKey: .lower)
        let upper = try container.decode(Int64.self, forKey: .upper)
        do { try self.init(lower, upper) } catch {
            throw DecodingError.dataCorruptedError(forKey: .upper, in: container, debugDescription: error.message)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(lowerBound, forKey: .lower)
        try container.encode(upperBound, forKey: .upper)
    }
}

/// Reads `LOW SEP HIGH` one piece at a time.
private struct RangeScanner {
    /// A signed run of digits; `value` is nil when it does not fit in 64 bits.
    struct Number { let value: Int64? }

    private let scalars: [Unicode.Scalar]
    private var index = 0

    init(_ text: String) { scalars = Array(text.unicodeScalars) }

    var isAtEnd: Bool { index == scalars.count }

    mutating func number() -> Number? {
        skipSpaces()
        var text = ""
        if index < scalars.count, scalars[index] == "-" || scalars[index] == "+" {
            text.unicodeScalars.append(scalars[index])
            index += 1
        }
        let start = index
        while index < scalars.count, ("0"..."9").contains(scalars[index]) {
            text.unicodeScalars.append(scalars[index])
            index += 1
        }
        return index > start ? Number(value: Int64(text)) : nil
    }

    mutating func separator() -> Bool {
        skipSpaces()
        guard index < scalars.count else { return false }
        switch scalars[index] {
        case "-", "–", "—":
            index += 1
            return true
        case "." where index + 1 < scalars.count && scalars[index + 1] == ".":
            index += 2
            return true
        default:
            return false
        }
    }

    private mutating func skipSpaces() {
        while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
    }
}

extension String {
    /// The text without leading and trailing whitespace and newlines.
    var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
