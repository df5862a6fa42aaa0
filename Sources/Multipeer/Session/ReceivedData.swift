import Foundation

/// A message whose type string travels on the wire, so receivers know what to decode.
///
/// ```swift
/// struct Chat: SessionMessage {
///     static let messageType = "chat"
///     var text: String
/// }
/// ```
public protocol SessionMessage: Codable, Sendable {
    /// The type's name on the wire: 1 to 255 bytes of UTF-8, unique within an application.
    static var messageType: String { get }
}

/// A `dataReceived` post: bytes that arrived from a connected peer.
public struct ReceivedData: Sendable, Hashable {
    /// Who sent it.
    public let peer: PeerID
    /// The ``SessionMessage/messageType`` of a typed message, or nil for raw bytes.
    public let messageType: String?
    /// The bytes as sent.
    public let payload: Data

    public init(peer: PeerID, messageType: String?, payload: Data) {
        self.peer = peer
        self.messageType = messageType
        self.payload = payload
    }

    /// Whether this is a message of type `M`.
    public func carries<M: SessionMessage>(_ type: M.Type) -> Bool {
        messageType == M.messageType
    }

    /// Decodes the payload as `M`.
    /// - Throws: ``MultipeerError/Code/messageDecodingFailed`` when the type string differs or
    ///   the payload is not a valid `M`.
    public func decode<M: SessionMessage>(_ type: M.Type) throws(MultipeerError) -> M {
        guard messageType == M.messageType else {
            throw .messageDecodingFailed(M.messageType, "it is a “\(messageType ?? "raw bytes")” message")
        }
        do { return try JSONDecoder().decode(M.self, from: payload) } catch {
            throw MultipeerError.messageDecodingFailed(M.messageType, "the payload does not match (\(error))").causedBy(error)
        }
    }
}
