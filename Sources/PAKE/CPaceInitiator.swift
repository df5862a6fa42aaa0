/// The side of a CPace exchange that speaks first (in guessnum, the guest).
///
/// ```swift
/// let initiator = CPaceInitiator(password: pw, channel: ci, session: sid)
/// send(initiator.share)                                   // Ya
/// let keys = try initiator.finish(responderShare: yb)      // on Yb
/// try keys.checkResponderTag(tb); send(keys.initiatorTag)  // Tb checked, Ta sent
/// ```
public struct CPaceInitiator: Sendable {
    /// The share to send, `Ya`.
    public let share: [UInt8]
    /// The associated data sent with it, `ADa`.
    public let associatedData: [UInt8]
    private let scalar: [UInt8]
    private let session: [UInt8]

    /// Starts an exchange with a fresh random scalar.
    /// - Parameters:
    ///   - password: the password's bytes (`PRS`).
    ///   - channel: the channel identifier (`CI`): what both sides know of the connection, such
    ///     as both parties' identities; a side that sees another `CI` ends with another key.
    ///   - session: the session id (`sid`), fresh for each exchange where possible.
    ///   - associatedData: `ADa`, sent with the share.
    public init(password: [UInt8], channel: [UInt8], session: [UInt8], associatedData: [UInt8] = []) {
        self.init(password: password, channel: channel, session: session, associatedData: associatedData, scalar: Ristretto255.randomScalar())
    }

    /// An exchange with a given scalar `ya` (the draft's test vectors).
    init(password: [UInt8], channel: [UInt8], session: [UInt8], associatedData: [UInt8], scalar: [UInt8]) {
        let generator = CPace.generator(password: password, channel: channel, session: session)
        // A generator times a nonzero scalar below the group's order is never the neutral element.
        share = Ristretto255.multiply(scalar, generator)!
        self.associatedData = associatedData
        self.scalar = scalar
        self.session = session
    }

    /// Finishes the exchange with the responder's share `Yb` and data `ADb`.
    /// - Throws: ``PAKEError/Code/invalidShare`` when `responderShare` is not a valid element
    ///   or makes the shared point neutral.
    public func finish(responderShare: [UInt8], responderData: [UInt8] = []) throws(PAKEError) -> CPaceKeys {
        guard let point = Ristretto255.multiply(scalar, responderShare) else { throw .invalidShare }
        return CPaceKeys(
            session: session, point: point, initiatorMessage: CPace.message(share: share, data: associatedData),
            responderMessage: CPace.message(share: responderShare, data: responderData))
    }
}
