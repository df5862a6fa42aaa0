/// The one error type of the Multipeer library.
///
/// Every error carries a ``code`` to switch on and a ``message``: one sentence, written for
/// the person at the keyboard, that says what went wrong and how to fix it. Programs show
/// ``message`` as it is; ``description`` is the same sentence.
///
/// An error made from another one (a system call's, SwiftNIO's, a decoder's) keeps it as its
/// ``underlying`` cause, for logs: ``debugDescription`` names it. The cause never replaces the
/// sentence, and two errors are equal when their code and sentence are.
public struct MultipeerError: CodedError, Sendable {
    /// What kind of failure this is.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// A display name is empty, too long or contains control characters.
        case invalidDisplayName
        /// A service type breaks the DNS-SD naming rules.
        case invalidServiceType
        /// Discovery info has a bad key, or an entry or the whole record is too large.
        case invalidDiscoveryInfo
        /// An address is not of the form `HOST:PORT`.
        case invalidEndpoint
        /// The file that keeps this user's peer identity could not be read or written.
        case identityStorage
        /// A frame announced a length above the configured maximum.
        case frameTooLarge
        /// Bytes on a connection did not form a valid frame.
        case malformedFrame
        /// The other side speaks a protocol version this library does not.
        case unsupportedProtocolVersion
        /// The other side broke the order of the protocol (e.g. data before the handshake).
        case protocolViolation
        /// A connecting client did not finish its handshake in time.
        case handshakeTimedOut
        /// A peer stopped answering heartbeats.
        case peerTimedOut
        /// A peer stopped reading what was sent to it, past the budget of bytes queued for it.
        case peerNotReading
        /// A peer's identity could not be proved: its certificate was refused, or the key it
        /// proved in the TLS handshake is not the identity it claims.
        case peerNotProved
        /// Another peer than the one discovered answered at its address.
        case wrongPeer
        /// The inviter's own check refused the host that accepted (see `Session.HostCheck`).
        case hostRefused
        /// The secure (TLS) handshake failed.
        case secureHandshakeFailed
        /// A connection could not be made.
        case connectionFailed
        /// Nothing answered a connection attempt in time: the machine is off the network, or a
        /// firewall drops the connection unanswered.
        case hostNotAnswering
        /// A connection closed before an expected answer arrived.
        case connectionClosed
        /// The session could not listen for invitations.
        case listenFailed
        /// The session is not listening, but the operation needs it to be.
        case notListening
        /// A message was addressed to a peer that is not connected.
        case peerNotConnected
        /// A message is larger than one frame may be.
        case messageTooLarge
        /// A typed message could not be encoded.
        case messageEncodingFailed
        /// A received payload could not be decoded as the requested message type.
        case messageDecodingFailed
        /// The session was disconnected and can no longer be used.
        case sessionClosed
        /// The operation was cancelled.
        case cancelled
        /// A stream name is empty, too long or contains control characters.
        case invalidStreamName
        /// A link already has as many open streams as it may.
        case tooManyStreams
        /// A stream was reset by the other side (or cancelled on this side) before it finished.
        case streamReset
        /// A stream ended because the link it ran on closed.
        case streamInterrupted
        /// A resource name is not a plain file name (a path, a dot file, control characters).
        case invalidResourceName
        /// The file to send could not be read, or changed while it was sent.
        case resourceUnreadable
        /// The receiver declined a resource.
        case resourceDeclined
        /// A resource could not be saved: it did not match its offer (size or SHA-256), or the
        /// receiver could not write it.
        case resourceFailed
        /// A resource's link closed and did not come back in time to resume it.
        case resourceInterrupted
        /// The discovery service (for example avahi-daemon) is not available.
        case discoveryUnavailable
        /// One of several ways of discovery (``MergedDiscovery``: the LAN's mDNS, a site's DNS
        /// zone) failed while the others go on finding peers; the sentence is that way's own.
        case discoveryPartlyUnavailable
        /// Advertising or browsing failed.
        case discoveryFailed
    }

    /// What kind of failure this is.
    public let code: Code
    /// One sentence that says what went wrong and how to fix it.
    public let message: String

    /// The error this one was made from, if any: for logs and debugging, not for the user.
    public let underlying: (any Error)?

    /// Creates an error. Prefer the named constructors, which keep the sentences consistent.
    public init(_ code: Code, _ message: String) {
        self.init(code, message, underlying: nil)
    }

    /// Creates an error made from `underlying`, which it keeps as its cause.
    public init(_ code: Code, _ message: String, underlying: (any Error)?) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// This error with `cause` kept as its ``underlying`` error (the code and sentence unchanged).
    public func causedBy(_ cause: (any Error)?) -> MultipeerError {
        MultipeerError(code, message, underlying: cause)
    }
}
