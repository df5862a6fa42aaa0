import Multipeer

/// Why a unicast DNS server did not do what was asked, with the sentence the user reads: who
/// to ask, or what to change.
public struct DNSError: CodedError, Sendable {
    /// What kind of failure this is.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The server did not answer in time, or could not be reached.
        case unreachable
        /// The server refused (REFUSED): it does not take updates (or queries) from here.
        case refused
        /// The key was not accepted (NOTAUTH, or a TSIG error): wrong name, secret or algorithm,
        /// or a clock too far off.
        case notAuthorized
        /// The name is not in a zone the server is authoritative for (NOTZONE).
        case notInZone
        /// The records an update required were not as required (a prerequisite failed): someone
        /// changed them meanwhile, and the update did nothing.
        case changed
        /// The server failed (SERVFAIL), or answered with another error.
        case serverFailure
        /// The answer could not be read, or did not come from the server asked.
        case badResponse
        /// The key, a name or a record given is malformed.
        case invalidInput
    }

    public let code: Code
    public let message: String
    public let underlying: (any Error)?

    init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }
}
