import Crypto

/// What one finished CPace exchange gives a side: the session key, and the confirmation tags
/// that prove to the other side that this side holds it.
public struct CPaceKeys: Sendable {
    /// The intermediate session key, `ISK` (64 bytes): equal on both sides exactly when both
    /// used the same password, channel identifier, session id and messages.
    public let sessionKey: [UInt8]
    /// The key of the confirmation tags: `SHA-512("CPaceMac" ‖ sid ‖ ISK)`.
    private let macKey: SymmetricKey
    /// `lv_cat(Ya, ADa)`, the initiator's message.
    private let initiatorMessage: [UInt8]
    /// `lv_cat(Yb, ADb)`, the responder's message.
    private let responderMessage: [UInt8]

    init(session: [UInt8], point: [UInt8], initiatorMessage: [UInt8], responderMessage: [UInt8]) {
        let sessionKey = CPace.sessionKey(session: session, point: point, initiatorMessage: initiatorMessage, responderMessage: responderMessage)
        self.sessionKey = sessionKey
        macKey = SymmetricKey(data: SHA512.hash(data: Array("CPaceMac".utf8) + session + sessionKey))
        self.initiatorMessage = initiatorMessage
        self.responderMessage = responderMessage
    }

    /// The initiator's confirmation tag, `Ta`, over its message.
    public var initiatorTag: [UInt8] { Array(HMAC<SHA512>.authenticationCode(for: initiatorMessage, using: macKey)) }
    /// The responder's confirmation tag, `Tb`, over its message.
    public var responderTag: [UInt8] { Array(HMAC<SHA512>.authenticationCode(for: responderMessage, using: macKey)) }

    /// Checks the initiator's tag in constant time.
    /// - Throws: ``PAKEError/Code/confirmationFailed``.
    public func checkInitiatorTag(_ tag: [UInt8]) throws(PAKEError) {
        guard HMAC<SHA512>.isValidAuthenticationCode(tag, authenticating: initiatorMessage, using: macKey) else { throw .confirmationFailed }
    }

    /// Checks the responder's tag in constant time.
    /// - Throws: ``PAKEError/Code/confirmationFailed``.
    public func checkResponderTag(_ tag: [UInt8]) throws(PAKEError) {
        guard HMAC<SHA512>.isValidAuthenticationCode(tag, authenticating: responderMessage, using: macKey) else { throw .confirmationFailed }
    }
}
