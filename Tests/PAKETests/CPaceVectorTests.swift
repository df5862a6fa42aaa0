import Testing

@testable import PAKE

/// draft-irtf-cfrg-cpace, appendix "Test vector for CPace using group ristretto255 and hash
/// SHA-512", and its string-utility vectors: the implementation computes exactly the draft's bytes.
@Suite(.timeLimit(.minutes(1)))
struct CPaceVectorTests {
    static let password = Array("Password".utf8)
    static let channel = hex("0b415f696e69746961746f720b425f726573706f6e646572")
    static let session = hex("7e4b4791d6a8ef019b936c79fb7f2c57")
    static let ya = hex("da3d23700a9e5699258aef94dc060dfda5ebb61f02a5ea77fad53f4ff0976d08")
    static let yb = hex("d2316b454718c35362d83d69df6320f38578ed5984651435e2949762d900b80d")
    static let shareA = hex("d6bac480f2c386c394efc7c47adb9925dcd2630b64f240c50f8d0eec482b9157")
    static let shareB = hex("3ea7e0b19560d7c0b0f5734f63b955286dfa8232b5ebe63324e2d9e7433f7258")
    static let point = hex("80b69a8a76457ab6a4d7f887a4bf6b55a2f80ac19c333f917a05fc9887c8b40f")
    static let sessionKey = hex("""
        b69effbf61b51d56401c0f65601abe428de8206feaaf0e32198896dcae7b35cd2b38950a39dfd5d4a79164614c2984f7daa460b588c1e80c3fa2068af7900447
        """)

    @Test("prepend_len and lv_cat encode lengths in LEB128")
    func lengthValue() {
        #expect(LengthValue.prependingLength([]) == [0x00])
        #expect(LengthValue.prependingLength(Array("1234".utf8)) == hex("0431323334"))
        #expect(LengthValue.prependingLength((0..<127).map { UInt8($0) }).prefix(2) == [0x7f, 0x00])
        #expect(LengthValue.prependingLength((0..<128).map { UInt8($0) }).prefix(3) == [0x80, 0x01, 0x00])
        #expect(LengthValue.prependingLength((0..<128).map { UInt8($0) }).count == 130)
        #expect(LengthValue.concatenating(Array("1234".utf8), Array("5".utf8), [], Array("678".utf8)) == hex("043132333401350003363738"))
    }

    @Test("The generator string, its hash and the generator are the draft's")
    func generator() {
        let string = CPace.generatorString(password: Self.password, channel: Self.channel, session: Self.session)
        #expect(string.count == 170)
        #expect(string == hex("""
            11435061636552697374726574746f3235350850617373776f726464\
            00000000000000000000000000000000000000000000000000000000\
            00000000000000000000000000000000000000000000000000000000\
            00000000000000000000000000000000000000000000000000000000\
            00000000000000000000000000000000180b415f696e69746961746f\
            720b425f726573706f6e646572107e4b4791d6a8ef019b936c79fb7f\
            2c57
            """))
        #expect(CPace.generator(password: Self.password, channel: Self.channel, session: Self.session)
            == hex("222b6b195fe84b1652badb6f6a3ae3d24341e7306967f0b8115b40d5698c7e56"))
    }

    @Test("Both messages, the shared point and ISK (initiator-responder) are the draft's")
    func exchange() throws {
        let initiator = CPaceInitiator(
            password: Self.password, channel: Self.channel, session: Self.session, associatedData: Array("ADa".utf8), scalar: Self.ya)
        #expect(initiator.share == Self.shareA)
        let responder = try CPaceResponder(
            answering: Self.shareA, initiatorData: Array("ADa".utf8), password: Self.password, channel: Self.channel, session: Self.session,
            associatedData: Array("ADb".utf8), scalar: Self.yb)
        #expect(responder.share == Self.shareB)
        #expect(Ristretto255.multiply(Self.ya, Self.shareB) == Self.point)
        #expect(Ristretto255.multiply(Self.yb, Self.shareA) == Self.point)
        #expect(responder.keys.sessionKey == Self.sessionKey)
        let keys = try initiator.finish(responderShare: responder.share, responderData: Array("ADb".utf8))
        #expect(keys.sessionKey == Self.sessionKey)
        try keys.checkResponderTag(responder.keys.responderTag)
        try responder.keys.checkInitiatorTag(keys.initiatorTag)
    }

    @Test("scalar_mult_vfy with a valid element is the draft's product")
    func validMultiplication() {
        let scalar = hex("7cd0e075fa7955ba52c02759a6c90dbbfc10e6d40aea8d283e407d88cf538a05")
        #expect(Ristretto255.multiply(scalar, hex("2c3c6b8c4f3800e7aef6864025b4ed79bd599117e427c41bd47d93d654b4a51c"))
            == hex("7c13645fe790a468f62c39beb7388e541d8405d1ade69d1778c5fe3e7f6b600e"))
    }

    @Test("An invalid encoding or the neutral element as a share ends the exchange", arguments: [
        hex("2b3c6b8c4f3800e7aef6864025b4ed79bd599117e427c41bd47d93d654b4a51c"),
        [UInt8](repeating: 0, count: 32),
        [UInt8](repeating: 0xff, count: 32),
        [UInt8](repeating: 1, count: 31),
    ])
    func invalidShare(share: [UInt8]) {
        let initiator = CPaceInitiator(password: Self.password, channel: Self.channel, session: Self.session)
        #expect(throws: PAKEError.invalidShare) { try initiator.finish(responderShare: share) }
        #expect(throws: PAKEError.invalidShare) {
            try CPaceResponder(answering: share, password: Self.password, channel: Self.channel, session: Self.session)
        }
    }
}

/// The bytes a string of hexadecimal digits spells (whitespace and newlines ignored).
func hex(_ text: String) -> [UInt8] {
    let digits = Array(text.filter(\.isHexDigit))
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
}
