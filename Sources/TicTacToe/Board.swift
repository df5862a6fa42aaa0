/// The nine squares and the marks on them.
///
/// On the wire a board is a string of nine characters, square 1 first: `X`, `O`, or `.` for an
/// empty square (`"X.O.X...."`); anything else fails to decode.
public struct Board: Sendable, Hashable, Codable {
    private var cells: [Mark?]

    /// An empty board.
    public init() {
        cells = Array(repeating: nil, count: 9)
    }

    /// The mark on `square`, or nil while it is empty.
    public subscript(square: Square) -> Mark? {
        get { cells[square.index] }
        set { cells[square.index] = newValue }
    }

    /// Whether every square holds a mark.
    public var isFull: Bool { !cells.contains(nil) }

    /// The eight lines of three: rows, columns, then the two diagonals.
    public static let lines: [[Square]] = [
        [1, 2, 3], [4, 5, 6], [7, 8, 9], [1, 4, 7], [2, 5, 8], [3, 6, 9], [1, 5, 9], [3, 5, 7],
    ].map { $0.map { Square($0)! } }

    /// The first line that `mark` fills, or nil.
    public func line(filledBy mark: Mark) -> [Square]? {
        Board.lines.first { line in line.allSatisfy { self[$0] == mark } }
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard text.count == 9, text.allSatisfy({ "XO.".contains($0) }) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a board"))
        }
        cells = text.map { Mark(rawValue: String($0)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(String(cells.map { $0?.rawValue ?? "." }.joined()))
    }
}
