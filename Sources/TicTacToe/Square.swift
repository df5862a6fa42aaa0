/// One of the nine squares, numbered as people type them: left to right, top to bottom.
///
/// ```
///  1 | 2 | 3
/// ---+---+---
///  4 | 5 | 6
/// ---+---+---
///  7 | 8 | 9
/// ```
///
/// On the wire a square is its number, `5`; decoding anything outside 1–9 fails.
public struct Square: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The square's number, 1–9.
    public let number: Int

    /// The square numbered `number`, or nil when there is no such square.
    public init?(_ number: Int) {
        guard (1...9).contains(number) else { return nil }
        self.number = number
    }

    /// All nine squares, 1 first.
    public static let all: [Square] = (1...9).map { Square($0)! }

    /// Where the square sits in a ``Board``'s cells, 0–8.
    var index: Int { number - 1 }

    public init(from decoder: any Decoder) throws {
        let number = try decoder.singleValueContainer().decode(Int.self)
        guard let square = Square(number) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no square \(number)"))
        }
        self = square
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(number)
    }

    /// The number, "5".
    public var description: String { String(number) }
}
