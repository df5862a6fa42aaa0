import Foundation
import Multipeer

/// What a guest sends along with its invitation, as the session's invitation context: a JSON
/// object, empty (no bytes at all) when there is nothing to say.
///
/// | field | value |
/// | --- | --- |
/// | `passwordProof` | for a private game, the ``PasswordProof`` in lowercase hex (64 digits) |
/// | `resumeAfter` | for a player coming back after a drop, the sequence number of the last broadcast item it has: the host replays what came after (see ``ReplayMessage``) |
///
/// Unknown fields are ignored, so later versions may add some.
public struct JoinRequest: Sendable, Hashable {
    /// The proof of the game's password, for a private game.
    public var passwordProof: Data?
    /// For a player coming back after a drop: the sequence number of the last broadcast item it has.
    public var resumeAfter: UInt64?

    /// A request carrying `passwordProof` and `resumeAfter`, if any.
    public init(passwordProof: Data? = nil, resumeAfter: UInt64? = nil) {
        self.passwordProof = passwordProof
        self.resumeAfter = resumeAfter
    }

    private struct Fields: Encodable {
        var passwordProof: String?
        var resumeAfter: UInt64?
    }

    /// The invitation context that carries this request: no bytes when it says nothing.
    public var context: Data {
        guard passwordProof != nil || resumeAfter != nil else { return Data() }
        let fields = Fields(passwordProof: passwordProof.map { Hex.encode($0) }, resumeAfter: resumeAfter)
        return (try? JSONEncoder().encode(fields)) ?? Data()
    }

    /// The request an invitation's `context` carries; an empty request when it carries nothing
    /// readable (an older guest, or a malformed context: the host then treats the guest as
    /// one that sent no proof).
    public init(context: Data) {
        guard !context.isEmpty, context.count <= 1_024,
              let object = (try? JSONSerialization.jsonObject(with: context)) as? [String: Any]
        else {
            self.init()
            return
        }
        let proof = (object["passwordProof"] as? String).flatMap(Hex.decode).map { Data($0) }
        let resumeAfter = (object["resumeAfter"] as? NSNumber).flatMap { number in
            number.int64Value >= 0 ? UInt64(number.int64Value) : nil
        }
        self.init(passwordProof: proof, resumeAfter: resumeAfter)
    }
}
