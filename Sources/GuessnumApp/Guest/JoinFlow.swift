import Multipeer
import Rooms
import SafeText

/// A private game's password as one invitation sends it, and whether the host must ask for it
/// (a game listed as private must; a join code's or an address's may not be private at all).
typealias JoinSecret = (password: GamePassword, required: Bool)

/// One try to join a game, as a state machine that decides and does nothing itself: the
/// host's key checked against the one remembered, a private game's password, the invitation,
/// and after its outcome another try (the password the host asked for, the game it hosts, the
/// addresses discovery resolved meanwhile) or the sentence that refuses.
///
/// ``GuestREPL`` drives it: it does each ``Step`` (asks, invites, prints) and hands each
/// invitation's ``Outcome`` to ``next(after:)``, until the flow asks the player, refuses, or
/// the player is in. Tests drive it with made-up facts and outcomes, without a terminal.
struct JoinFlow: Sendable {
    /// What the flow knows of the player and the host before it starts.
    struct Facts: Sendable {
        /// Whether the player can be asked (a person at a terminal, and no `--game`).
        var canAsk: Bool
        /// The password of private games that the environment gave, if any.
        var environmentPassword: GamePassword?
        /// Whether a listed host announces another key than the one remembered for its name.
        var keyChanged: Bool
        /// The known hosts' file, for the sentence that refuses a changed key.
        var knownHostsFile: String
        /// The games this program plays.
        var kinds: [GameKind]
        /// How long the host may take to answer (for the sentences).
        var timeout: Duration
    }

    /// What to do next.
    enum Step: Sendable {
        /// Ask whether to join anyway and remember the new key of the host called `name`; the
        /// next line answers (``GuestREPL/Question/newKey(_:)``).
        case askNewKey(JoinTarget, name: String)
        /// Ask for the password, typed hidden; the next line answers.
        case askPassword(JoinTarget, acceptingNewKey: Bool)
        /// Invite the host of `target` (with `secret`'s exchange, if any), checking its key
        /// unless `acceptingNewKey`; say "Joining …" first when `announce`.
        case invite(JoinTarget, secret: JoinSecret?, acceptingNewKey: Bool, announce: Bool)
        /// Not joined: say `sentence`; the list marks the game as not answering when `markSilent`.
        case refuse(String, markSilent: Bool)
    }

    /// How an invitation ended, when it did not let the player in.
    enum Outcome: Sendable {
        /// The host declined, with its reason.
        case declined(String?)
        /// The host did not answer in time.
        case timedOut
        /// The invitation failed: `refusedName` is the name whose remembered key the host's
        /// did not match, if that was why; `listedNow` the game as the list has it now.
        case failed(MultipeerError, refusedName: String?, listedNow: DiscoveredPeer?)
    }

    /// The game being joined (a later try may play another game there, or know more addresses).
    private(set) var target: JoinTarget
    private var acceptingNewKey: Bool
    private var typed: GamePassword?
    private var again = false
    private var saidJoining = false
    private var secret: JoinSecret?
    private let facts: Facts

    /// A try to join `target`, the player having already accepted its new key (`acceptingNewKey`)
    /// or typed its password (`password`), if asked.
    init(_ target: JoinTarget, facts: Facts, acceptingNewKey: Bool = false, password: GamePassword? = nil) {
        self.target = target
        self.facts = facts
        self.acceptingNewKey = acceptingNewKey
        typed = password
    }

    /// The first step: the key check of a listed host, then the password a private game needs,
    /// then the invitation.
    mutating func start() -> Step {
        if target.isListed, !acceptingNewKey, facts.keyChanged {
            if facts.canAsk { return .askNewKey(target, name: target.host) }
            return .refuse(GuestREPL.changedKeyRefusal(target.host, file: facts.knownHostsFile), markSilent: false)
        }
        // A game listed as private must ask for the password. A join code or an address says
        // nothing of one; the environment's goes (in an exchange bound to the pinned identity)
        // in case the game is private.
        if let typed {
            secret = (typed, true)
        } else if target.isListed, GameAdvertisement(decoding: target.game.info).isPrivate {
            guard let password = facts.environmentPassword else { return passwordNeeded() }
            secret = (password, true)
        } else if !target.isListed, let password = facts.environmentPassword {
            secret = (password, false)
        } else {
            secret = nil
        }
        guard facts.kinds.contains(where: { $0.id == target.gameID }) else {
            return .refuse(GameCatalog.unknownGame(target.gameID, host: target.host), markSilent: false)
        }
        // Once a join (a code or an address said "Connecting to" already), not again as it tries again.
        defer { saidJoining = true }
        return .invite(target, secret: secret, acceptingNewKey: acceptingNewKey, announce: target.isListed && !saidJoining)
    }

    /// The step after an invitation that did not let the player in.
    mutating func next(after outcome: Outcome) -> Step {
        let hostName = target.host
        switch outcome {
        case .declined(let reason) where GameError.asksForPassword(reason) && secret == nil:
            // Private, though nothing said so before: the same question as a listed private game.
            guard let password = facts.environmentPassword else { return passwordNeeded() }
            typed = password
            return start()
        case .declined(let reason) where target.playing == nil:
            // Another game than the listing said (or than guess-the-number, by code or address): play that one.
            guard let hosted = GameError.hostedGame(declining: reason, asked: target.gameID, among: facts.kinds) else { fallthrough }
            target.playing = hosted.id
            return start()
        case .declined(let reason):
            return .refuse(GuestREPL.turnedAway(target.hostStartingSentence, reason), markSilent: false)
        case .timedOut:
            let within = MultipeerError.secondsText(facts.timeout)
            if target.isListed { return .refuse("\(hostName) did not answer within \(within); the list marks the game as not answering.", markSilent: true) }
            return .refuse("\(target.hostStartingSentence) did not answer within \(within).", markSilent: false)
        case .failed(let error, let refusedName, let listedNow):
            return next(afterFailure: error, refusedName: refusedName, listedNow: listedNow)
        }
    }

    private mutating func next(afterFailure error: MultipeerError, refusedName: String?, listedNow: DiscoveredPeer?) -> Step {
        let game = target.game
        if error.code == .hostRefused {
            if !target.isListed, let refusedName, facts.canAsk { return .askNewKey(target, name: TerminalText.sanitized(refusedName)) }
            return .refuse(error.message, markSilent: false)
        }
        if target.isListed, !again, [.hostNotAnswering, .connectionFailed].contains(error.code),
            Set(listedNow?.endpoints ?? game.endpoints) != Set(game.endpoints) {
            // Discovery resolved more addresses meanwhile (it reports a game at its first): try those too.
            again = true
            target = JoinTarget(game: listedNow ?? game, route: .listed, playing: target.playing)
            return start()
        }
        if target.isListed, error.code == .hostNotAnswering { return .refuse(GuestREPL.foundButSilent(target.host, at: game.endpoints), markSilent: true) }
        if error.code == .wrongPeer, target.route == .code {
            return .refuse(
                "This join code is for another host: someone else answered at its address, with another key. Ask the host for its code again.",
                markSilent: false)
        }
        if error.code == .wrongPeer, !target.isListed {
            return .refuse("Another host answers at \(Endpoint.spokenList(game.endpoints)) than a moment ago, with another key: not joined.", markSilent: false)
        }
        return .refuse("Could not join \(target.host): \(error.message)", markSilent: target.isListed && error.code != .wrongPeer)
    }

    /// Asks for the password at a terminal, or tells a script to set it.
    private func passwordNeeded() -> Step {
        if facts.canAsk { return .askPassword(target, acceptingNewKey: acceptingNewKey) }
        return .refuse(GuestREPL.passwordNeeded(target), markSilent: false)
    }
}
