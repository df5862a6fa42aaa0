/// The side of a CPace exchange that answers (in guessnum, the host): it receives the
/// initiator's share, and answers with its own and its confirmation tag in one message.
public struct CPaceResponder: Sendable {
    /// The share to send, `Yb`.
    public let share: [UInt8]
    /// The associated data sent with it, `ADb`.
    public let associatedData: [UInt8]
    /// The exchange's keys: send ``CPaceKeys/responderTag`` with the share, and check the
    /// initiator's tag with ``CPaceKeys/checkInitiatorTag(_:)``.
    public let keys: CPaceKeys

    /// Answers the initiator's share `Ya` with a fresh random scalar.
    /// - Parameters: as ``CPaceInitiator/init(password:channel:session:associatedData:)``, plus
    ///   the initiator's share and associated data.
    /// - Throws: ``PAKEError/Code/invalidShare`` when `initiatorShare` is not a valid element.
    public init(
        answering initiatorShare: [UInt8], initiatorData: [UInt8] = [], password: [UInt8], channel: [UInt8], session: [UInt8],
        associatedData: [UInt8] = []
    ) throws(PAKEError) {
        try self.init(
            answering: initiatorShare, initiatorData: initiatorData, password: password, channel: channel, session: session,
            associatedData: associatedData, scalar: Ristretto255.randomScalar())
    }

    /// An answer with a given scalar `yb` (the draft's test vectors).
    init(
        answering initiatorShare: [UInt8], initiatorData: [UInt8], password: [UInt8], channel: [UInt8], session: [UInt8],
        associatedData: [UInt8], scalar: [UInt8]
    ) throws(PAKEError) {
        guard let point = Ristretto255.multiply(scalar, initiatorShare) else { throw .invalidShare }
        let generator = CPace.generator(password: password, channel: channel, session: session)
        let share = Ristretto255.multiply(scalar, generator)!
        self.share = share
        self.associatedData = associatedData
        keys = CPaceKeys(
            session: session, point: point, initiatorMessage: CPace.message(share: initiatorShare, data: initiatorData),
            responderMessage: CPace.message(share: share, data: associatedData))
    }
}
