import Foundation
import Multipeer

/// What a guest sends along with its invitation, as the session's invitation context: a JSON
/// object, empty (no bytes at all) when there is nothing to say.
///
/// | field | value |
/// | --- | --- |
/// | `passwordExchange` | for a private game, the guest's ``PasswordExchange/Guest/opening`` in lowercase hex (96 digits) |
/// | `game` | the game the guest plays, as its ``GameKind/id`` (`tictactoe`); absent from guess-the-number's players |
/// | `resumeAfter` | for a player coming back after a drop, the sequence number of the last broadcast item it has: the host replays what came after (see `ReplayMessage`) |
///
/// Unknown fields are ignored, so later versions may add some.
public struct JoinRequest: Sendable, Hashable {
    /// The opening of the password exchange, for a private game.
    public var passwordExchange: Data?
    /// For a player coming back after a drop: the sequence number of the last broadcast item it has.
    public var resumeAfter: UInt64?
    /// The game the guest plays (``GameKind/id``); absent from guess-the-number's players, which
    /// is the game a host takes an absent one for.
    public var game: String?

    /// A request carrying `passwordExchange`, `resumeAfter` and `game`, if any.
    public init(passwordExchange: Data? = nil, resumeAfter: UInt64? = nil, game: String? = nil) {
        self.passwordExchange = passwordExchange
        self.resumeAfter = resumeAfter
        self.game = game
    }

    /// The game a host takes a request without ``game`` for: guess-the-number, whose players
    /// never said.
    public static let unnamedGame = "guessnum"

    /// A request to play `kind`, after a drop the items after `resumeAfter`: a game other than
    /// guess-the-number is named, as the hosts of earlier releases expect.
    public init(resumeAfter: UInt64?, playing kind: GameKind) {
        self.init(resumeAfter: resumeAfter, game: kind.id == Self.unnamedGame ? nil : kind.id)
    }

    /// The game this request asks to play (``unnamedGame`` when it does not say).
    public var gameAsked: String { game ?? Self.unnamedGame }

    private struct Fields: Encodable {
        var passwordExchange: String?
        var resumeAfter: UInt64?
        var game: String?
    }

    /// The invitation context that carries this request: no bytes when it says nothing.
    public var context: Data {
        guard passwordExchange != nil || resumeAfter != nil || game != nil else { return Data() }
        let fields = Fields(passwordExchange: passwordExchange.map { Hex.encode($0) }, resumeAfter: resumeAfter, game: game)
        return (try? JSONEncoder().encode(fields)) ?? Data()
    }

    /// The request an invitation's `context` carries; an empty request when it carries nothing
    /// readable (an older guest, or a malformed context: the host then treats the guest as
    /// one that started no password exchange).
    public init(context: Data) {
        guard !context.isEmpty, context.count <= 1_024,
              let object = (try? JSONSerialization.jsonObject(with: context)) as? [String: Any]
        else {
            self.init()
            return
        }
        let exchange = (object["passwordExchange"] as? String).flatMap(Hex.decode).map { Data($0) }
        let resumeAfter = (object["resumeAfter"] as? NSNumber).flatMap { number in
            number.int64Value >= 0 ? UInt64(number.int64Value) : nil
        }
        let game = (object["game"] as? String).flatMap { $0.utf8.count <= 32 ? $0 : nil }
        self.init(passwordExchange: exchange, resumeAfter: resumeAfter, game: game)
    }
}
