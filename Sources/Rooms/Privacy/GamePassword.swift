import Foundation

/// The password of a private game, as the host sets it and a guest types it.
///
/// It is compared as Unicode text: two passwords that look the same, typed on keyboards that
/// compose accents differently, are the same (both are normalized to NFC). It never prints:
/// its description is “(password hidden)”, so it cannot end up in a log by accident. Only
/// ``PasswordExchange`` uses it, and nothing that could be tested against it leaves the program.
public struct GamePassword: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The most UTF-8 bytes a password may have (1,024).
    public static let maximumBytes = 1_024

    /// The password's bytes: its text in NFC, as UTF-8.
    let bytes: [UInt8]

    /// A password of `text`.
    /// - Throws: ``GameError/Code/invalidPassword`` when `text` is empty or longer than
    ///   ``maximumBytes``.
    public init(_ text: String) throws(GameError) {
        let normalized = Array(text.precomposedStringWithCanonicalMapping.utf8)
        if normalized.isEmpty { throw .emptyPassword }
        if normalized.count > Self.maximumBytes { throw .passwordTooLong(limit: Self.maximumBytes) }
        bytes = normalized
    }

    public var description: String { "(password hidden)" }
    public var debugDescription: String { description }
}
