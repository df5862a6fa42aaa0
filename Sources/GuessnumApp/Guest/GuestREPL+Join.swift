import EventBus
import Foundation
import GuessnumGame
import GuessnumTerminal
import Multipeer
import SafeText
import Synchronization

/// Joining one game (the one `--game` names, once listed alone): the host's key checked, a
/// private game's password exchanged, the seat taken.
extension GuestREPL {
    /// How long `--game` waits, once its game is listed, for a game under a name that looks
    /// the same (one announced to pose as it) to be listed too.
    static var nameSettling: Duration { .seconds(1) }

    /// With `--game`: joins the wanted game once it has been listed for ``nameSettling`` with
    /// no other game under a name that looks like it, or gives up after the timeout. Two games
    /// that look like the name, or only one that looks like it without being it, are refused
    /// with a sentence that lists them: someone may be posing as the game.
    func joinWantedGame() async -> CommandFlow {
        guard let wanted else { return .stay }
        let matches = games.matching(wanted.name)
        if !matches.isEmpty {
            if matches.count > 1 || !matches[0].names.contains(wanted.name) {
                // The refusal is the program's last word: not a sentence, then "Could not join".
                outcome = AppFailure(Self.lookalikeRefusal(wanted.name, matches.flatMap(\.names)), .turnedAway)
                return .quit
            }
            guard let settled = wanted.settled else {
                self.wanted?.settled = .now + Self.nameSettling
                lobby.wake(after: Self.nameSettling)
                return .stay
            }
            if ContinuousClock.now < settled { return .stay }
            let game = matches[0]
            if !tried.contains(game.peer) {
                tried.insert(game.peer)
                if await join(JoinTarget(game: game, route: .listed)) == .joined { return .stay }
                outcome = AppFailure("Could not join “\(TerminalText.sanitized(wanted.name))”.", .turnedAway)
                return .quit
            }
        }
        if ContinuousClock.now >= wanted.deadline {
            let why = games.problem == nil ? "." : ": games cannot be found while discovery is unavailable."
            outcome = AppFailure(
                "No game called “\(TerminalText.sanitized(wanted.name))” was found within \(MultipeerError.secondsText(timeout))" + why, .notFound)
            return .quit
        }
        return .stay
    }

    /// Joins `target`: does the steps of a ``JoinFlow`` — the key check, the password, the
    /// invitation, another try or the refusal — and sits down if let in.
    ///
    /// A listed host that announces another key than the one remembered for its name is asked
    /// about at a terminal (``JoinResult/asking``; the next line typed answers) and refused in
    /// scripts; `acceptingNewKey` is the yes. A join code or an address pins the host's key
    /// itself, and is asked about only if the name the host answers with was remembered with
    /// another key. A private game — listed as private, or saying so when invited without a
    /// password — is sent the exchange of `password`, or of the environment's; without one the
    /// player is asked for it at a terminal, and a script is told to set it.
    func join(_ target: JoinTarget, acceptingNewKey: Bool = false, password typed: GamePassword? = nil) async -> JoinResult {
        var flow = JoinFlow(target, facts: joinFacts(for: target), acceptingNewKey: acceptingNewKey, password: typed)
        var step = flow.start()
        while true {
            switch step {
            case .askNewKey(let target, let name):
                question = .newKey(target)
                console.print(Self.changedKeyQuestion(name))
                return .asking
            case .askPassword(let target, let acceptingNewKey):
                question = .password(target, acceptingNewKey: acceptingNewKey)
                console.hideNextLine(prompt: "Password for \(target.gameName) (not shown): ")
                return .asking
            case .refuse(let sentence, let markSilent):
                if markSilent { games.markSilent(flow.target.game.peer) }
                console.print(sentence)
                return .notJoined
            case .invite(let target, let secret, let acceptingNewKey, let announce):
                guard let seat = GameCatalog.seat(for: target.gameID, at: self) else {
                    step = .refuse(GameCatalog.unknownGame(target.gameID, host: target.host), markSilent: false)
                    continue
                }
                if announce { console.print("Joining \(target.host)…") }
                let (request, answer) = Self.joinRequest(seat.joinRequest(resumeAfter: nil), from: session.localPeer, to: target.game.peer, secret: secret)
                // A code's or an address's host is checked by the name it answers with: the key is
                // pinned, but never silently in place of another key remembered for that name.
                let refusedName = RefusedName()
                let check = acceptingNewKey ? nil : keyCheck(listedAs: target.isListed ? target.game.peer.displayName : nil, refused: refusedName)
                do {
                    switch try await session.invite(target.game, context: request.context, timeout: timeout, hostCheck: check, answer: answer) {
                    case .connected(let host):
                        await take(seat, from: host, in: target, secret: secret)
                        return .joined
                    case .declined(let reason): step = flow.next(after: .declined(reason))
                    case .timedOut: step = flow.next(after: .timedOut)
                    }
                } catch {
                    let refused = refusedName.value.withLock { $0 }
                    step = flow.next(after: .failed(error, refusedName: refused, listedNow: games.entry(for: target.game.peer)))
                }
                seat.stop()
            }
        }
    }

    /// What a join of `target` starts from: whether the player can be asked, the environment's
    /// password, whether its listed host's key changed.
    private func joinFacts(for target: JoinTarget) -> JoinFlow.Facts {
        let status = knownHosts?.status(ofHost: target.game.peer.displayName, identity: GameAdvertisement.holder(of: target.game))
        return JoinFlow.Facts(
            canAsk: wanted == nil && console.isInteractive, environmentPassword: password, keyChanged: status == .changed,
            knownHostsFile: knownHosts?.fileURL.path ?? "the known hosts", kinds: GameCatalog.kinds, timeout: timeout)
    }

    /// Sits in `seat` at the game of `host`, who let the player in to `target`, and remembers the
    /// host's key and where its game was joined.
    private func take(_ seat: any GuestSeat, from host: PeerID, in target: JoinTarget, secret: JoinSecret?) async {
        let game = target.game
        // The name its key's holder gives itself, unless listed under it (or Avahi's "alice #2"):
        // a record under another name that claims its identity never names it.
        let listed = target.isListed ? HostName.joined(listedAs: game.peer.displayName, answering: host.displayName) : host.displayName
        rememberKey(of: host, listedAs: listed)
        remember(host, listedAs: listed, at: game.endpoints, isPrivate: GameAdvertisement(decoding: game.info).isPrivate || secret != nil)
        if target.isListed { seatGame = game.peer }
        await sit(in: seat, host: host, listedAs: listed, rejoin: rejoin(game, as: seat, secret: secret, listedAs: listed))
    }

    /// The request of one invitation to the game of `host`, and the answer to its challenge:
    /// with `secret`, a fresh ``Rooms/PasswordExchange`` of its password (each invitation needs its own).
    static func joinRequest(
        _ request: JoinRequest, from guest: PeerID, to host: PeerID, secret: JoinSecret?
    ) -> (JoinRequest, InvitationAnswer?) {
        guard let secret else { return (request, nil) }
        let exchange = PasswordExchange.Guest(password: secret.password, guest: guest.identity, host: host.identity, required: secret.required)
        var request = request
        request.passwordExchange = exchange.opening
        return (request, { host, challenge in exchange.answer(host: host, challenge: challenge) })
    }

    /// What a player is told when a listed game's machine does not answer at any of its
    /// addresses: discovery works, so the likeliest cause is a firewall on the host's machine.
    static func foundButSilent(_ host: String, at endpoints: [Endpoint]) -> String {
        let port = endpoints.first.map { " --port \($0.port)" } ?? ""
        return "\(host)'s game was found on the network, but nothing answers at \(Endpoint.spokenList(endpoints)): a firewall on \(host)'s machine may be dropping the game's port. There, `guessnum doctor\(port)` names such a rule."
    }

    static func passwordNeeded(_ target: JoinTarget) -> String {
        "\(target.gameNameStartingSentence) is private: set \(PasswordQuestion.environmentVariable) to its password to join it from a script."
    }
}
