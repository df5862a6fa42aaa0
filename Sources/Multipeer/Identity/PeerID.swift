import Foundation

/// A peer: a stable, unique identity plus the name people see.
///
/// Two `PeerID`s are equal when their identities are equal, whatever their display names: a
/// peer that renames itself, or a second peer that happens to pick the same name, is never
/// confused with another. Keep the identity across launches with `MultipeerPOSIX`'s `PeerIdentityStore`.
public struct PeerID: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The most UTF-8 bytes a display name may have (as in Apple's MultipeerConnectivity).
    public static let maximumDisplayNameBytes = 63

    /// The stable identity that makes this peer unique.
    public let identity: UUID
    /// The name shown to people: 1 to 63 UTF-8 bytes, no control characters (bidirectional
    /// overrides included, so a name cannot reorder the text printed after it), and no
    /// invisible or formatting characters (zero-width spaces, word joiners, soft hyphens,
    /// spaces other than U+0020), so that two names that look alike are alike.
    public let displayName: String

    /// Creates a peer, validating `displayName`.
    ///
    /// - Parameters:
    ///   - displayName: 1 to ``maximumDisplayNameBytes`` UTF-8 bytes without control,
    ///     invisible or formatting characters.
    ///   - identity: the peer's identity; a new random one unless given (see `MultipeerPOSIX`'s `PeerIdentityStore`).
    /// - Throws: ``MultipeerError/Code/invalidDisplayName``.
    public init(displayName: String, identity: UUID = UUID()) throws(MultipeerError) {
        try Self.validate(displayName: displayName)
        self.identity = identity
        self.displayName = displayName
    }

    /// The same peer under another display name.
    public func renamed(to displayName: String) throws(MultipeerError) -> PeerID {
        try PeerID(displayName: displayName, identity: identity)
    }

    /// Checks a display name against the rules without creating a peer.
    public static func validate(displayName: String) throws(MultipeerError) {
        let bytes = displayName.utf8.count
        if bytes == 0 { throw .invalidDisplayName(displayName, "is empty") }
        if bytes > maximumDisplayNameBytes { throw .invalidDisplayName(displayName, "is \(bytes) bytes long") }
        if displayName.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.isBidiControl }) {
            throw .invalidDisplayName(displayName, "contains control characters")
        }
        var previous: Unicode.Scalar?
        for scalar in displayName.unicodeScalars {
            if isInvisible(scalar, after: previous) {
                throw .invalidDisplayName(displayName, "contains an invisible or formatting character (\(codePoint(scalar)))")
            }
            previous = scalar
        }
    }

    /// Whether `scalar` prints as nothing, or as a space other than U+0020, so that two names
    /// that differ by it look the same: format characters (U+00AD, U+200B…U+200D, U+2060,
    /// U+FEFF…), default-ignorable code points (variation selectors, U+3164 Hangul filler…)
    /// and every other space (U+00A0, U+2000…U+200A, U+3000…). The zero-width joiner and the
    /// emoji variation selectors are allowed right after an emoji, whose look they change
    /// ("👨‍👩‍👧", "❤️").
    static func isInvisible(_ scalar: Unicode.Scalar, after previous: Unicode.Scalar?) -> Bool {
        let properties = scalar.properties
        if properties.generalCategory == .format || properties.isDefaultIgnorableCodePoint {
            guard let previous else { return true }
            switch scalar {
            case "\u{FE0E}", "\u{FE0F}": return !previous.properties.isEmoji
            case "\u{200D}": return !(previous == "\u{FE0F}" || (previous.properties.isEmoji && !previous.isASCII))
            default: return true
            }
        }
        return properties.isWhitespace && scalar != " "
    }

    /// "U+200B".
    private static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    public static func == (lhs: PeerID, rhs: PeerID) -> Bool { lhs.identity == rhs.identity }
    public func hash(into hasher: inout Hasher) { hasher.combine(identity) }

    public var description: String { displayName }

    private enum CodingKeys: String, CodingKey { case identity, displayName }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            displayName: container.decode(String.self, forKey: .displayName),
            identity: container.decode(UUID.self, forKey: .identity)
        )
    }
}
