/// The message types a connection has received, kept so that each is decoded once: a DATA
/// frame whose type is one of them takes the kept `String` (a comparison of its bytes) instead
/// of a new one checked as UTF-8 and allocated — on a game's link nearly every frame carries one
/// of a handful of types, and decoding the type anew was the largest single cost of reading a
/// frame.
///
/// Bounded: at most ``capacity`` names are kept; past that, a new name replaces the one kept
/// longest. A peer sending a new type in every frame costs what it cost before.
public struct MessageTypeNames: Sendable {
    /// The most names kept.
    public static let capacity = 8

    /// The names kept.
    private var names: [String] = []
    /// Where the next name goes once ``capacity`` are kept: the one kept longest.
    private var oldest = 0

    /// An empty set of names.
    public init() {}

    /// The name `bytes` spell: a kept one when it is among them, else `decode(bytes)`, which is
    /// then kept.
    mutating func name(
        of bytes: UnsafeRawBufferPointer, decode: (UnsafeRawBufferPointer) throws(MultipeerError) -> String
    ) throws(MultipeerError) -> String {
        for name in names where Self.spells(name, bytes) { return name }
        let name = try decode(bytes)
        if names.count < Self.capacity {
            names.append(name)
        } else {
            names[oldest] = name
            oldest = (oldest + 1) % Self.capacity
        }
        return name
    }

    /// Whether `name`'s UTF-8 is exactly `bytes`.
    private static func spells(_ name: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var name = name
        return name.withUTF8 { utf8 in utf8.count == bytes.count && utf8.elementsEqual(bytes) }
    }
}
