import Testing

@testable import PAKE

/// Exchanges with fresh scalars: the same password and channel agree; anything else is caught
/// by the confirmation, from both sides.
@Suite(.timeLimit(.minutes(1)))
struct CPaceExchangeTests {
    let channel = Array("guest key | host key".utf8)
    let session = Array("a fresh session id".utf8)

    func run(initiatorPassword: String, responderPassword: String, responderChannel: [UInt8]? = nil) throws -> (CPaceKeys, CPaceResponder) {
        let initiator = CPaceInitiator(password: Array(initiatorPassword.utf8), channel: channel, session: session)
        let responder = try CPaceResponder(
            answering: initiator.share, password: Array(responderPassword.utf8), channel: responderChannel ?? channel, session: session)
        return (try initiator.finish(responderShare: responder.share), responder)
    }

    @Test("The same password: the same key, and each side's tag checks at the other")
    func samePassword() throws {
        let (keys, responder) = try run(initiatorPassword: "correct horse", responderPassword: "correct horse")
        #expect(keys.sessionKey == responder.keys.sessionKey)
        #expect(keys.sessionKey.count == 64)
        try keys.checkResponderTag(responder.keys.responderTag)
        try responder.keys.checkInitiatorTag(keys.initiatorTag)
        // A tag is over its sender's own message: one side's tag is not the other's.
        #expect(keys.initiatorTag != keys.responderTag)
        #expect(throws: PAKEError.confirmationFailed) { try keys.checkResponderTag(keys.initiatorTag) }
    }

    @Test("Another password: different keys, and both tags are refused")
    func otherPassword() throws {
        let (keys, responder) = try run(initiatorPassword: "correct horse", responderPassword: "correct horsE")
        #expect(keys.sessionKey != responder.keys.sessionKey)
        #expect(throws: PAKEError.confirmationFailed) { try keys.checkResponderTag(responder.keys.responderTag) }
        #expect(throws: PAKEError.confirmationFailed) { try responder.keys.checkInitiatorTag(keys.initiatorTag) }
    }

    @Test("Another channel identifier (a relay's other leg): refused though the password is right")
    func otherChannel() throws {
        let (keys, responder) = try run(
            initiatorPassword: "correct horse", responderPassword: "correct horse", responderChannel: Array("relay key | host key".utf8))
        #expect(throws: PAKEError.confirmationFailed) { try keys.checkResponderTag(responder.keys.responderTag) }
    }

    @Test("Shares are fresh: two exchanges with one password never send the same share")
    func freshShares() {
        let first = CPaceInitiator(password: Array("pw".utf8), channel: channel, session: session)
        let second = CPaceInitiator(password: Array("pw".utf8), channel: channel, session: session)
        #expect(first.share != second.share)
        #expect(first.share.count == CPace.shareBytes)
    }
}
