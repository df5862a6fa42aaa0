import GuessnumGame
import GuessnumStore
import Multipeer
import MultipeerPOSIX

/// What kind of failure each library error is when it ends the program: the one place that
/// decides, for every code, and so the exit code that follows (``AppFailure/Code/exitCode``).
/// The switches name every code, so a new one cannot be added without deciding its kind.
extension AppFailure.Code {
    /// The kind of failure a ``Multipeer/MultipeerError`` of `code` is.
    public init(_ code: MultipeerError.Code) {
        switch code {
        case .invalidDisplayName, .invalidServiceType, .invalidDiscoveryInfo, .invalidEndpoint, .invalidStreamName, .invalidResourceName:
            self = .usage
        case .hostRefused, .wrongPeer, .peerNotProved, .resourceDeclined:
            self = .turnedAway
        case .hostNotAnswering:
            self = .noAnswer
        case .identityStorage:
            self = .storage
        // The library's `cancelled` is an operation ended by this program or by the other side;
        // only the app knows when the user pressed Ctrl-C (``AppFailure/Code/cancelled``).
        case .cancelled, .frameTooLarge, .malformedFrame, .unsupportedProtocolVersion, .protocolViolation, .handshakeTimedOut, .peerTimedOut,
             .peerNotReading, .secureHandshakeFailed, .connectionFailed, .connectionClosed, .listenFailed, .notListening,
             .peerNotConnected, .messageTooLarge, .messageEncodingFailed, .messageDecodingFailed, .sessionClosed, .tooManyStreams,
             .streamReset, .streamInterrupted, .resourceUnreadable, .resourceFailed, .resourceInterrupted, .discoveryUnavailable,
             .discoveryPartlyUnavailable, .discoveryFailed:
            self = .runtime
        }
    }

    /// The kind of failure a ``GuessnumGame/GameError`` of `code` is: what the user typed or
    /// gave on the command line is a usage mistake; a host's refusal is being turned away.
    public init(_ code: GameError.Code) {
        switch code {
        case .invalidRange, .secretOutOfRange, .invalidConfiguration, .invalidName, .invalidPassword, .chatTooLong, .numberTooLarge,
             .guessOutOfRange:
            self = .usage
        case .gameFull, .tooManyFromAddress, .passwordNeeded, .wrongPassword, .tooManyWrongPasswords, .passwordNotConfirmed, .throttled, .wrongGame:
            self = .turnedAway
        case .noSuchPlayer:
            self = .notFound
        case .notJoined, .sendFailed, .other:
            self = .runtime
        }
    }
}

extension AppFailure {
    /// `error` as the failure the program ends with: its sentence, the kind its code is, and
    /// `error` kept as the cause.
    public init(_ error: MultipeerError) {
        self.init(error.message, Code(error.code), underlying: error)
    }

    /// `error` as the failure the program ends with: its sentence, the kind its code is, and
    /// `error` kept as the cause.
    public init(_ error: GameError) {
        self.init(error.message, Code(error.code), underlying: error)
    }

    /// A file of the app's own (not an identity) that the library's ``Multipeer/PrivateFiles``
    /// could not write: the same sentence, as a failure of kind ``Code/storage``, with `error`
    /// kept as the cause.
    public init(storing error: MultipeerError) {
        self.init(error.message, .storage, underlying: error)
    }

    /// Any error of the library, the game or its store as the failure the program ends with (an
    /// ``AppFailure`` as it is; a store's error a failure of kind ``Code/storage``); nil for an
    /// error of another type.
    public init?(ending error: any Error) {
        switch error {
        case let failure as AppFailure: self = failure
        case let error as MultipeerError: self.init(error)
        case let error as GameError: self.init(error)
        case let error as GameStoreError: self.init(error.message, .storage, underlying: error)
        default: return nil
        }
    }
}
