import Crypto

/// CPace (draft-irtf-cfrg-cpace), the balanced password-authenticated key exchange, in its
/// cipher suite CPACE-RISTR255-SHA512 and the initiator-responder setting, with the draft's
/// explicit key confirmation.
///
/// Two sides that hold the same password, and see the same channel identifier, end with the same
/// session key; each learns whether the other held the same password, and nobody else learns
/// anything a password could be tested against offline. A side that guesses gets exactly one
/// guess per exchange: its share commits to one password before it sees anything of the other's.
///
/// ```text
///  Initiator (password, CI, sid)              Responder (password, CI, sid)
///  Ya = ya·g  ──────────── Ya, ADa ─────────▶  Yb = yb·g, K = yb·Ya, ISK, Tb
///  K = ya·Yb, ISK, check Tb ◀── Yb, ADb, Tb ──
///  Ta  ─────────────────────── Ta ──────────▶  check Ta
/// ```
///
/// - `g` is hashed from the password, the channel identifier `CI` and the session id `sid`
///   (``generator(password:channel:session:)``).
/// - `ISK = SHA-512(lv_cat("CPaceRistretto255_ISK", sid, K) ‖ lv_cat(Ya, ADa) ‖ lv_cat(Yb, ADb))`.
/// - Confirmation: `mac_key = SHA-512("CPaceMac" ‖ sid ‖ ISK)`; each side sends
///   `HMAC-SHA512(mac_key, lv_cat(Y, AD))` over its own message.
///
/// The group operations are libsodium's (`crypto_core_ristretto255_from_hash`,
/// `crypto_scalarmult_ristretto255`); the hashes and MACs swift-crypto's. The draft's test
/// vectors for this suite are checked in `CPaceVectorTests`.
public enum CPace {
    /// The suite's domain-separation identifier, `G.DSI`.
    static let domain = Array("CPaceRistretto255".utf8)
    /// SHA-512's input block size, `H.s_in_bytes`.
    static let hashBlockBytes = 128
    /// How many bytes a share (an encoded group element) has.
    public static let shareBytes = Ristretto255.elementBytes
    /// How many bytes a confirmation tag has.
    public static let tagBytes = SHA512.byteCount

    /// `generator_string(G.DSI, PRS, CI, sid, H.s_in_bytes)`: the password padded with zeros to
    /// fill SHA-512's first block, so that hashing it takes the same time for every short
    /// password.
    static func generatorString(password: [UInt8], channel: [UInt8], session: [UInt8]) -> [UInt8] {
        let padding = max(0, hashBlockBytes - 1 - LengthValue.prependingLength(password).count - LengthValue.prependingLength(domain).count)
        return LengthValue.concatenating(domain, password, [UInt8](repeating: 0, count: padding), channel, session)
    }

    /// `G.calculate_generator`: the encoded generator `g` of one exchange.
    static func generator(password: [UInt8], channel: [UInt8], session: [UInt8]) -> [UInt8] {
        let hash = SHA512.hash(data: generatorString(password: password, channel: channel, session: session))
        return Ristretto255.element(fromHash: Array(hash))
    }

    /// The intermediate session key, `ISK`, from the shared point `K` and both messages.
    static func sessionKey(session: [UInt8], point: [UInt8], initiatorMessage: [UInt8], responderMessage: [UInt8]) -> [UInt8] {
        let prefix = LengthValue.concatenating(domain + Array("_ISK".utf8), session, point)
        return Array(SHA512.hash(data: prefix + initiatorMessage + responderMessage))
    }

    /// `lv_cat(Y, AD)`: one side's message as the transcript and its confirmation see it.
    static func message(share: [UInt8], data: [UInt8]) -> [UInt8] {
        LengthValue.concatenating(share, data)
    }
}
