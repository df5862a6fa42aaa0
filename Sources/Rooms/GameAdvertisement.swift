import Foundation
import Multipeer

/// What a host announces about its game on the LAN, and what `guessnum join` lists, whatever
/// the game: which game it is, how many play out of how many seats, the round number, whether it
/// is private, and the numbers a round is played over when its rules announce some
/// (guess-the-number's range, ``GameRules/announcedRange``).
///
/// Carried in the DNS-SD TXT record (``discoveryInfo``) with one-letter keys, well within the
/// 200 bytes a record should stay under:
///
/// | key | value | example |
/// | --- | --- | --- |
/// | `r` | the round's range, `LOW..HIGH` (LOW < HIGH, each within ±10^15) | `1..100` |
/// | `p` | players and seats, `COUNT/MAX` | `3/100` |
/// | `n` | the round number | `2` |
/// | `k` | `1` when the game needs a password (left out otherwise) | `1` |
/// | `g` | the game, when it is not guess-the-number | `tictactoe` |
/// | `o` | the identity of the person whose key endorsed the host's, when it is another key (a second game hosted from one account; see ``Multipeer/PeerEndorsement``) | `5f0e…` |
///
/// Decoding is lenient: a missing or malformed entry is nil, and unknown keys are ignored, so
/// a newer host's extra facts never hide a game from an older player.
public struct GameAdvertisement: Sendable, Hashable {
    /// The DNS-SD service type every guessnum game is announced under (`_guessnum._tcp`).
    public static let serviceType: ServiceType = {
        do { return try ServiceType("guessnum") } catch { preconditionFailure("“guessnum” is a valid service type: \(error)") }
    }()

    /// The numbers the current round is played over, if the game announces some.
    public var range: ClosedRange<Int64>?
    /// How many players are in the game.
    public var playerCount: Int?
    /// How many may join.
    public var maximumPlayers: Int?
    /// The current round's number.
    public var round: Int?
    /// Whether the game needs a password. Only a hint for the
    /// list and for asking the password before joining: the host checks every guest anyway.
    public var isPrivate: Bool
    /// The game the host runs (``Rooms/GameKind/id``); nil for guess-the-number, which every
    /// earlier host ran without saying.
    public var game: String?
    /// The identity of the person whose key endorsed the host's key, when the host runs under
    /// another key than that person's first (``Multipeer/PeerEndorsement``). Only a claim until
    /// the host proves it on connecting, as the host's own identity is.
    public var owner: UUID?

    /// An advertisement with the given facts.
    public init(range: ClosedRange<Int64>?, playerCount: Int?, maximumPlayers: Int?, round: Int?, isPrivate: Bool = false, game: String? = nil) {
        self.range = range
        self.playerCount = playerCount
        self.maximumPlayers = maximumPlayers
        self.round = round
        self.isPrivate = isPrivate
        self.game = game
    }

    /// The game the host runs: ``game``, or guess-the-number's ID when the host does not say.
    public var gameID: String { game ?? JoinRequest.unnamedGame }

    /// The facts `info` carries; nil for each one missing or malformed.
    public init(decoding info: DiscoveryInfo) {
        range = info[Key.range].flatMap(Self.range(parsing:))
        let seats = info[Key.players].map { $0.split(separator: "/", omittingEmptySubsequences: false) }
        if let seats, seats.count == 2, let count = Int(seats[0]), let maximum = Int(seats[1]), count >= 0, maximum >= 1 {
            playerCount = count
            maximumPlayers = maximum
        }
        round = info[Key.round].flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil }
        isPrivate = info[Key.locked] == "1"
        game = info[Key.game].flatMap { GameKind.isValidID($0) ? $0 : nil }
        owner = info[Key.owner].flatMap { UUID(uuidString: $0) }
    }

    /// The identity a listed host stands for: its ``owner`` when it announces one, else its own.
    public static func holder(of game: DiscoveredPeer) -> UUID {
        GameAdvertisement(decoding: game.info).owner ?? game.peer.identity
    }

    /// `info` with `owner` announced (unchanged when it is nil).
    public static func announcing(owner: UUID?, in info: DiscoveryInfo) -> DiscoveryInfo {
        guard let owner else { return info }
        return (try? info.setting(Key.owner, to: owner.uuidString.lowercased())) ?? info
    }

    /// The TXT record entries for these facts (the missing ones are left out).
    public var discoveryInfo: DiscoveryInfo {
        var entries: [String: String] = [:]
        if let range { entries[Key.range] = "\(range.lowerBound)..\(range.upperBound)" }
        if let playerCount, let maximumPlayers { entries[Key.players] = "\(playerCount)/\(maximumPlayers)" }
        if let round { entries[Key.round] = String(round) }
        if isPrivate { entries[Key.locked] = "1" }
        if let game { entries[Key.game] = game }
        if let owner { entries[Key.owner] = owner.uuidString.lowercased() }
        // These short entries are always within DiscoveryInfo's limits.
        return (try? DiscoveryInfo(entries)) ?? DiscoveryInfo()
    }

    /// The largest magnitude an announced bound may have: 10^15, below 2^53, so every number
    /// survives a trip through JSON in any language.
    public static let maximumMagnitude: Int64 = 1_000_000_000_000_000

    /// `LOW..HIGH` with LOW below HIGH, both within ±``maximumMagnitude``; nil otherwise.
    static func range(parsing text: String) -> ClosedRange<Int64>? {
        let parts = text.components(separatedBy: "..")
        guard parts.count == 2, let low = Int64(parts[0]), let high = Int64(parts[1]), low < high,
            low.magnitude <= maximumMagnitude.magnitude, high.magnitude <= maximumMagnitude.magnitude
        else { return nil }
        return low...high
    }

    private enum Key {
        static let range = "r"
        static let players = "p"
        static let round = "n"
        static let locked = "k"
        static let game = "g"
        static let owner = "o"
    }
}

extension GameAdvertisement {
    /// What `room` announces now: its game (left unsaid for guess-the-number, as every earlier
    /// host did), the range its rules announce, its round, players and seats, and whether it is
    /// private.
    public init<Rules: GameRules>(of room: RoomHost<Rules>) {
        self.init(
            range: room.rules.announcedRange, playerCount: room.playerCount, maximumPlayers: room.configuration.maximumPlayers, round: room.round,
            isPrivate: room.isPrivate, game: Rules.kind.id == JoinRequest.unnamedGame ? nil : Rules.kind.id)
    }
}
