import Foundation
import Multipeer

/// What a guest sends along with its invitation, as the session's invitation context: a JSON
/// object, empty (no bytes at all) when there is nothing to say.
///
/// | field | value |
/// | --- | --- |
/// | `passwordProof` | for a private game, the ``PasswordProof`` in lowercase hex (64 digits) |
///
/// Unknown fields are ignored, so later versions may add some.
public struct JoinRequest: Sendable, Hashable {
    /// The proof of the game's password, for a private game.
    public var passwordProof: Data?

    /// A request carrying `passwordProof`, if any.
    public init(passwordProof: Data? = nil) {
        self.passwordProof = passwordProof
    }

    /// The invitation context that carries this request: no bytes when it says nothing.
    public var context: Data {
        guard let passwordProof else { return Data() }
        let object = ["passwordProof": Hex.encode(passwordProof)]
        return (try? JSONEncoder().encode(object)) ?? Data()
    }

    /// The request an invitation's `context` carries; an empty request when it carries nothing
    /// readable (an older guest, or a malformed context: the host then treats the guest as
    /// one that sent no proof).
    public init(context: Data) {
        guard !context.isEmpty, context.count <= 1_024,
              let object = (try? JSONSerialization.jsonObject(with: context)) as? [String: Any],
              let hex = object["passwordProof"] as? String, let bytes = Hex.decode(hex)
        else {
            self.init()
            return
        }
        self.init(passwordProof: Data(bytes))
    }
}
