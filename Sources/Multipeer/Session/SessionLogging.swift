import Logging

extension MultipeerError.Code {
    /// Whether an error of this kind means the other side broke the rules (a bad frame, a
    /// broken protocol, another version, a handshake never finished): logged at `.notice`.
    var isPeerMisbehaviour: Bool {
        switch self {
        case .frameTooLarge, .malformedFrame, .unsupportedProtocolVersion, .protocolViolation, .handshakeTimedOut, .peerNotReading,
             .peerNotProved, .secureHandshakeFailed:
            true
        default:
            false
        }
    }
}

extension Logger.Metadata {
    /// The metadata of a line about `peer` (a remote address or a display name), with the
    /// code of `error` when there is one.
    static func about(peer: String, _ error: MultipeerError? = nil) -> Logger.Metadata {
        var metadata: Logger.Metadata = ["peer": .string(peer)]
        if let error {
            metadata["code"] = .string(error.code.rawValue)
            metadata["error"] = .string(error.message)
        }
        return metadata
    }
}

/// One line a session logs once its lock is released.
struct SessionLogLine {
    let level: Logger.Level
    let message: Logger.Message
    let metadata: Logger.Metadata
}
