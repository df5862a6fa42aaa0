import SafeText
/// The sentences of the library, in one place.
extension MultipeerError {
    /// A display name broke the rules.
    public static func invalidDisplayName(_ name: String, _ problem: String) -> MultipeerError {
        MultipeerError(.invalidDisplayName, "The display name \(TerminalText.quoted(name)) \(problem); choose a name of 1 to \(PeerID.maximumDisplayNameBytes) bytes without control, invisible or formatting characters.")
    }

    /// A service type broke the DNS-SD rules.
    public static func invalidServiceType(_ type: String, _ problem: String) -> MultipeerError {
        MultipeerError(.invalidServiceType, "The service type \(TerminalText.quoted(type)) \(problem); use 1 to 15 lowercase letters, digits and single hyphens, with at least one letter and no hyphen at either end.")
    }

    /// Discovery info broke the size or key rules.
    public static func invalidDiscoveryInfo(_ problem: String) -> MultipeerError {
        MultipeerError(.invalidDiscoveryInfo, "The discovery info \(problem); keep each key=value within \(DiscoveryInfo.maximumEntryBytes) bytes and the whole record within \(DiscoveryInfo.maximumRecordBytes) bytes.")
    }

    /// Text that is not `HOST:PORT`.
    public static func invalidEndpoint(_ text: String) -> MultipeerError {
        MultipeerError(.invalidEndpoint, "\(TerminalText.quoted(text)) is not an address; write it as HOST:PORT, for example 192.168.1.20:7777 or [fe80::1]:7777.")
    }

    /// A length prefix above the limit.
    public static func frameTooLarge(_ length: Int, limit: Int) -> MultipeerError {
        MultipeerError(.frameTooLarge, "The other side announced a frame of \(length) bytes, above this side's limit of \(limit) bytes, so the connection was closed; both sides should use the same maximum frame length.")
    }

    /// Bytes that are not a frame.
    public static func malformedFrame(_ problem: String) -> MultipeerError {
        MultipeerError(.malformedFrame, "The other side sent bytes that are not a valid frame (\(problem)), so the connection was closed; it is probably not a guessnum peer.")
    }

    /// A peer speaking another protocol version.
    public static func unsupportedProtocolVersion(_ version: UInt16) -> MultipeerError {
        MultipeerError(.unsupportedProtocolVersion, "The other side speaks protocol version \(version) and this one speaks version \(WireProtocol.version); update both programs to the same release.")
    }

    /// A frame out of protocol order.
    public static func protocolViolation(_ problem: String) -> MultipeerError {
        MultipeerError(.protocolViolation, "The other side broke the protocol (\(problem)), so the connection was closed.")
    }

    /// A client that did not say hello in time.
    public static func handshakeTimedOut(after limit: Duration) -> MultipeerError {
        MultipeerError(.handshakeTimedOut, "A client connected but did not introduce itself within \(limit.secondsText), so it was dropped.")
    }

    /// A peer silent for longer than the timeout.
    public static func peerTimedOut(_ peer: PeerID, after limit: Duration) -> MultipeerError {
        MultipeerError(.peerTimedOut, "\(peer.displayName) has not been heard from for \(limit.secondsText) and is taken to be gone; it may rejoin.")
    }

    /// A peer that left more than `limit` bytes unread, or stayed backlogged for longer than
    /// `duration` (when given).
    public static func peerNotReading(_ peer: String, limit: Int? = nil, after duration: Duration? = nil) -> MultipeerError {
        let why = duration.map { "for \($0.secondsText)" } ?? limit.map { "past \($0 / 1024) KiB" } ?? "past its budget"
        return MultipeerError(.peerNotReading, "\(peer) stopped reading what was sent to it (\(why)) and was disconnected; it may rejoin.")
    }

    /// A peer whose HELLO or ACCEPT claims an identity other than the one its key proved.
    public static func identityNotProved(_ peer: String) -> MultipeerError {
        MultipeerError(.peerNotProved, "\(peer) claims an identity that its key does not prove, so the connection was refused.")
    }

    /// A peer found by discovery whose address was answered by another peer.
    /// `other` is the name the other peer gave, when it gave one before it was refused.
    public static func notThePeerPicked(_ expected: String, answeredBy other: String? = nil) -> MultipeerError {
        let someone = other.map { "someone else (“\($0)”)" } ?? "someone else"
        return MultipeerError(.wrongPeer, "This is not the game you picked: \(someone) answered at the address of \(expected), with another key. Pick the game again from the list.")
    }

    /// A secure handshake that failed, with the library's reason.
    public static func secureHandshakeFailed(_ reason: String) -> MultipeerError {
        MultipeerError(.secureHandshakeFailed, "The secure handshake failed (\(reason)); the other side may run an older guessnum without encryption.")
    }

    /// A connection that could not be made.
    public static func connectionFailed(_ endpoint: Endpoint, _ reason: String) -> MultipeerError {
        MultipeerError(.connectionFailed, "Could not connect to \(endpoint): \(reason). Check the address and that the host is still running.")
    }

    /// Nothing answered at any of `endpoints` (tried at once or overlapping) within `timeout`.
    public static func hostNotAnswering(_ endpoints: [Endpoint], within timeout: Duration) -> MultipeerError {
        MultipeerError(.hostNotAnswering, "Nothing answered at \(Endpoint.spokenList(endpoints)) within \(timeout.secondsText): the machine may be off the network, or a firewall may be dropping connections to the port.")
    }

    /// A connection that closed too early; `what` completes "The connection closed …".
    public static func connectionClosed(_ what: String) -> MultipeerError {
        MultipeerError(.connectionClosed, "The connection closed \(what).")
    }

    /// A port that could not be listened on.
    public static func listenFailed(port: Int, _ reason: String) -> MultipeerError {
        MultipeerError(.listenFailed, "Could not listen on port \(port): \(reason). Choose another port, or 0 to let the system pick one.")
    }

    /// Advertising without listening.
    public static var notListening: MultipeerError {
        MultipeerError(.notListening, "The session is not listening for invitations; call startListening before advertising.")
    }

    /// A send to peers that are not connected.
    public static func peerNotConnected(_ peers: [PeerID]) -> MultipeerError {
        let names = peers.map(\.displayName).joined(separator: ", ")
        return MultipeerError(.peerNotConnected, "Nothing was sent, because \(names) \(peers.count == 1 ? "is" : "are") not connected.")
    }

    /// A message larger than a frame.
    public static func messageTooLarge(_ size: Int, limit: Int) -> MultipeerError {
        MultipeerError(.messageTooLarge, "The message is \(size) bytes, above the frame limit of \(limit) bytes; send it in smaller parts or raise maximumFrameLength on both sides.")
    }

    /// A message type that is empty or too long.
    public static func invalidMessageType(_ type: String) -> MultipeerError {
        MultipeerError(.messageEncodingFailed, "The message type \(TerminalText.quoted(type)) must be 1 to 255 bytes of UTF-8.")
    }

    /// A message that could not be encoded.
    public static func messageEncodingFailed(_ type: String, _ error: any Error) -> MultipeerError {
        MultipeerError(.messageEncodingFailed, "A \(TerminalText.quoted(type)) message could not be encoded: \(error).", underlying: error)
    }

    /// A payload that is not the requested message.
    public static func messageDecodingFailed(_ type: String, _ problem: String) -> MultipeerError {
        MultipeerError(.messageDecodingFailed, "A message could not be read as \(TerminalText.quoted(type)): \(problem).")
    }

    /// A stream name that breaks the rule of ``StreamName``.
    public static func invalidStreamName(_ name: String, _ problem: String) -> MultipeerError {
        MultipeerError(.invalidStreamName, "The stream name \(TerminalText.quoted(name)) \(problem); use 1 to \(StreamName.maximumBytes) bytes of text without control characters.")
    }

    /// A stream opened past the limit of open streams on one link.
    public static func tooManyStreams(_ peer: String, limit: Int) -> MultipeerError {
        MultipeerError(.tooManyStreams, "\(peer) already has \(limit) open streams with this side, the most a link may carry; wait for one to end, then open the stream again.")
    }

    /// A stream reset by `who` ("alice", "this side") before it finished.
    public static func streamReset(_ name: String, by who: String, reason: String?) -> MultipeerError {
        MultipeerError(.streamReset, "The stream \(TerminalText.quoted(name)) was reset by \(who) before it finished\(reason.map { " (\($0))" } ?? ""); open it again to send its bytes.")
    }

    /// A write to a stream this side already finished or cancelled.
    public static func streamAlreadyEnded(_ name: String) -> MultipeerError {
        MultipeerError(.cancelled, "The stream \(TerminalText.quoted(name)) was already finished or cancelled on this side; open a new stream to send more.")
    }

    /// A stream whose link closed under it.
    public static func streamInterrupted(_ name: String, peer: String) -> MultipeerError {
        MultipeerError(.streamInterrupted, "The stream \(TerminalText.quoted(name)) ended because the link to \(peer) closed; open it again once \(peer) is connected.")
    }

    /// A resource name that breaks the rule of ``ResourceName``.
    public static func invalidResourceName(_ name: String, _ problem: String) -> MultipeerError {
        MultipeerError(.invalidResourceName, "The file name \(TerminalText.quoted(name)) \(problem); send a file under a plain name of 1 to \(StreamName.maximumBytes) bytes, without slashes, a leading dot or control characters.")
    }

    /// A file to send that could not be read (`problem` completes "it …"), or changed meanwhile.
    public static func resourceUnreadable(_ path: String, _ problem: String) -> MultipeerError {
        MultipeerError(.resourceUnreadable, "The file \(TerminalText.quoted(path)) cannot be sent: \(problem).")
    }

    /// A resource the receiver declined.
    public static func resourceDeclined(_ name: String, by peer: String, reason: String?) -> MultipeerError {
        MultipeerError(.resourceDeclined, "\(peer) declined \(TerminalText.quoted(name))\(reason.map { ": \($0)" } ?? "").")
    }

    /// A resource its receiver could not save; `why` is one sentence without its period.
    public static func resourceFailed(_ name: String, _ why: String) -> MultipeerError {
        MultipeerError(.resourceFailed, "\(TerminalText.quoted(name)) was not saved: \(why).")
    }

    /// A resource whose link closed and did not come back within `window`.
    public static func resourceInterrupted(_ name: String, peer: String, after window: Duration) -> MultipeerError {
        MultipeerError(.resourceInterrupted, "\(TerminalText.quoted(name)) stopped: the link to \(peer) closed and did not come back within \(window.secondsText); send it again to start over.")
    }

    /// A resource whose sender did not come back within `window`, what arrived of it kept for
    /// a restart (``ResumeStore``) for `keptFor`.
    public static func resourceInterruptedKept(_ name: String, peer: String, after window: Duration, keptFor: Duration) -> MultipeerError {
        MultipeerError(.resourceInterrupted, "\(TerminalText.quoted(name)) stopped: the link to \(peer) closed and did not come back within \(window.secondsText); what arrived is kept for \(keptFor.hoursText), and sending it again goes on from there.")
    }

    /// A resource this side stopped receiving, keeping what arrived for `keptFor`
    /// (``IncomingResource/stopKeeping()``).
    public static func resourceStoppedKept(_ name: String, keptFor: Duration) -> MultipeerError {
        MultipeerError(.cancelled, "\(TerminalText.quoted(name)) stopped here; what arrived is kept for \(keptFor.hoursText), and sending it again goes on from there.")
    }

    /// A resource cancelled by `who` ("alice", "this side").
    public static func resourceCancelled(_ name: String, by who: String) -> MultipeerError {
        MultipeerError(.cancelled, "\(TerminalText.quoted(name)) was cancelled by \(who); nothing of it was kept.")
    }

    /// Use of a disconnected session.
    public static var sessionClosed: MultipeerError {
        MultipeerError(.sessionClosed, "The session has been disconnected; create a new session to connect again.")
    }

    /// A cancelled operation.
    public static var cancelled: MultipeerError {
        MultipeerError(.cancelled, "The operation was cancelled.")
    }

    /// How the library's sentences speak of time: "5 s", "2.5 s". Transports and backends use it
    /// so that every sentence reads alike.
    public static func secondsText(_ duration: Duration) -> String {
        duration.secondsText
    }
}

extension Duration {
    /// "2.5 s", "30 s": how the library's sentences speak of time.
    var secondsText: String {
        let milliseconds = components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        return "\(Double(milliseconds) / 1000) s"
    }

    /// "24 h", or ``secondsText`` below an hour: how long something is kept.
    var hoursText: String {
        components.seconds >= 3600 && components.seconds % 3600 == 0 ? "\(components.seconds / 3600) h" : secondsText
    }

    /// Whole milliseconds, rounded down and clamped at zero.
    var wholeMilliseconds: Int64 {
        max(0, components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000)
    }
}
