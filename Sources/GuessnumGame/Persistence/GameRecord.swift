import Foundation

/// What a host keeps of its game so that it can resume it after a crash: the current round with
/// its secret and every guess judged in it, the players (their identities, the names they
/// had, their order), the scoreboard and the last sequence number given.
///
/// A value with no I/O; a store (`GuessnumStore`) keeps it up to date from each tick's
/// ``GameJournal`` and loads it back. ``GameMaster/init(session:configuration:resuming:logger:)``
/// makes a game from it.
public struct GameRecord: Sendable, Hashable {
    /// The current round.
    public var round: RoundRecord
    /// Every guess judged in the current round, in order.
    public var guesses: [GuessRecord]
    /// The players in their seats, in join order.
    public var players: [PlayerRecord]
    /// Every scoreboard entry.
    public var scores: [Scoreboard.Entry]
    /// The last sequence number given to a broadcast item.
    public var lastSequence: UInt64

    /// Creates a record; see the properties.
    public init(round: RoundRecord, guesses: [GuessRecord] = [], players: [PlayerRecord] = [], scores: [Scoreboard.Entry] = [], lastSequence: UInt64 = 0) {
        self.round = round
        self.guesses = guesses
        self.players = players
        self.scores = scores
        self.lastSequence = lastSequence
    }

    /// Takes in what one tick changed.
    public mutating func apply(_ journal: GameJournal) {
        if let started = journal.roundStarted {
            round = started
            guesses = []
        }
        guesses.append(contentsOf: journal.guesses.filter { $0.round == round.number })
        for player in journal.players {
            if let index = players.firstIndex(where: { $0.id == player.id }) { players[index] = player } else { players.append(player) }
        }
        players.removeAll { journal.playersGone.contains($0.id) }
        for entry in journal.scores {
            if let index = scores.firstIndex(where: { $0.player.id == entry.player.id }) { scores[index] = entry } else { scores.append(entry) }
        }
        lastSequence = max(lastSequence, journal.lastSequence)
    }
}

/// A round as a store keeps it: enough to judge its guesses again, secret included.
public struct RoundRecord: Sendable, Hashable {
    /// The round's number.
    public var number: Int
    /// Its range.
    public var range: GuessRange
    /// Its secret (a store of the host's own, never sent before the reveal).
    public var secret: Int64
    /// The salt of its commitment.
    public var salt: Salt

    /// Creates a round record.
    public init(number: Int, range: GuessRange, secret: Int64, salt: Salt) {
        self.number = number
        self.range = range
        self.secret = secret
        self.salt = salt
    }
}

/// One guess judged, as a store keeps it.
public struct GuessRecord: Sendable, Hashable {
    /// The round it was made in.
    public var round: Int
    /// Who made it, under the name it had then.
    public var player: PlayerRef
    /// The number guessed.
    public var guess: Int64

    /// Creates a guess record.
    public init(round: Int, player: PlayerRef, guess: Int64) {
        self.round = round
        self.player = player
        self.guess = guess
    }
}

/// A player in a seat, as a store keeps it.
public struct PlayerRecord: Sendable, Hashable {
    /// The player's identity.
    public var id: UUID
    /// The name the player's program gave (its peer's display name).
    public var displayName: String
    /// The name unique in the game that the player is shown under.
    public var name: String

    /// Creates a player record.
    public init(id: UUID, displayName: String, name: String) {
        self.id = id
        self.displayName = displayName
        self.name = name
    }
}

/// What changed in a host's game during one tick that a store must keep: written in one
/// transaction per tick, so that a crash loses at most the last tick.
public struct GameJournal: Sendable, Hashable {
    /// The round that started during the tick (its guesses follow in ``guesses``).
    public var roundStarted: RoundRecord?
    /// The guesses judged during the tick, in order.
    public var guesses: [GuessRecord] = []
    /// Players who took a seat or changed name.
    public var players: [PlayerRecord] = []
    /// Players whose seat was freed.
    public var playersGone: [UUID] = []
    /// Scoreboard entries that changed.
    public var scores: [Scoreboard.Entry] = []
    /// The last sequence number given.
    public var lastSequence: UInt64 = 0

    /// An empty journal.
    public init() {}

    /// Whether the tick changed nothing a store keeps.
    public var isEmpty: Bool {
        roundStarted == nil && guesses.isEmpty && players.isEmpty && playersGone.isEmpty && scores.isEmpty
    }
}
