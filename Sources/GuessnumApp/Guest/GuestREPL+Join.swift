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
                wake(after: Self.nameSettling)
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

    /// Invites the host of `target` and sits down if let in.
    ///
    /// A listed host that announces another key than the one remembered for its name is asked
    /// about at a terminal (``JoinResult/asking``; the next line typed answers) and refused in
    /// scripts; `acceptingNewKey` is the yes. A join code or an address pins the host's key
    /// itself, and is asked about only if the name the host answers with was remembered with
    /// another key. A private game — listed as private, or saying so when invited without a
    /// password — is sent the exchange of `password`, or of the environment's; without one the
    /// player is asked for it at a terminal, and a script is told to set it.
    func join(
        _ target: JoinTarget, acceptingNewKey: Bool = false, password typed: GamePassword? = nil, again: Bool = false, saidJoining: Bool = false
    ) async -> JoinResult {
        let game = target.game
        let hostName = target.host
        if target.isListed, !acceptingNewKey, knownHosts?.status(ofHost: game.peer.displayName, identity: GameAdvertisement.holder(of: game)) == .changed {
            if wanted == nil, console.isInteractive {
                question = .newKey(target)
                console.print(Self.changedKeyQuestion(hostName))
                return .asking
            }
            console.print(Self.changedKeyRefusal(hostName, file: knownHosts?.fileURL.path ?? "the known hosts"))
            return .notJoined
        }
        // The password, and whether the host must ask for it: a game listed as private must. A
        // join code or an address says nothing of a password; one from the environment goes (in
        // an exchange bound to the pinned identity) in case the game is private.
        var secret: (password: GamePassword, required: Bool)?
        if let typed {
            secret = (typed, true)
        } else if target.isListed, GameAdvertisement(decoding: game.info).isPrivate {
            guard let password else { return askPassword(for: target, acceptingNewKey: acceptingNewKey) }
            secret = (password, true)
        } else if !target.isListed, let password {
            secret = (password, false)
        }
        guard let seat = GameCatalog.seat(for: target.gameID, at: self) else {
            console.print(GameCatalog.unknownGame(target.gameID, host: hostName))
            return .notJoined
        }
        let (request, answer) = Self.joinRequest(seat.joinRequest(resumeAfter: nil), from: session.localPeer, to: game.peer, secret: secret)
        // Once a join (a code or an address said "Connecting to" already), not again as it tries again.
        if target.isListed, !saidJoining { console.print("Joining \(hostName)…") }
        // A code's or an address's host is checked by the name it answers with: the key is
        // pinned, but never silently in place of another key remembered for that name.
        let refusedName = RefusedName()
        do {
            let outcome = try await session.invite(
                game, context: request.context, timeout: timeout,
                hostCheck: acceptingNewKey ? nil : keyCheck(listedAs: target.isListed ? game.peer.displayName : nil, refused: refusedName),
                answer: answer)
            switch outcome {
            case .connected(let host):
                // The name its key's holder gives itself, unless listed under it (or Avahi's "alice #2"):
                // a record under another name that claims its identity never names it.
                let listed = target.isListed ? HostName.joined(listedAs: game.peer.displayName, answering: host.displayName) : host.displayName
                rememberKey(of: host, listedAs: listed)
                remember(host, listedAs: listed, at: game.endpoints, isPrivate: GameAdvertisement(decoding: game.info).isPrivate || secret != nil)
                if target.isListed { seatGame = game.peer }
                await sit(in: seat, host: host, listedAs: listed, rejoin: rejoin(game, as: seat, secret: secret, listedAs: listed))
                return .joined
            case .declined(let reason) where GameError.asksForPassword(reason) && secret == nil:
                // Private, though nothing said so before: the same question as a listed private game.
                seat.stop()
                if let password { return await join(target, acceptingNewKey: acceptingNewKey, password: password, saidJoining: true) }
                return askPassword(for: target, acceptingNewKey: acceptingNewKey)
            case .declined(let reason) where target.playing == nil:
                // Another game than the listing said (or than guess-the-number, by code or address): play that one.
                guard let hosted = GameError.hostedGame(declining: reason, asked: target.gameID, among: GameCatalog.kinds) else { fallthrough }
                seat.stop()
                var playing = target
                playing.playing = hosted.id
                return await join(playing, acceptingNewKey: acceptingNewKey, password: typed, again: again, saidJoining: true)
            case .declined(let reason):
                console.print(Self.turnedAway(target.hostStartingSentence, reason))
            case .timedOut:
                if target.isListed {
                    games.markSilent(game.peer)
                    console.print("\(hostName) did not answer within \(MultipeerError.secondsText(timeout)); the list marks the game as not answering.")
                } else {
                    console.print("\(target.hostStartingSentence) did not answer within \(MultipeerError.secondsText(timeout)).")
                }
            }
        } catch where error.code == .hostRefused {
            if !target.isListed, let name = refusedName.value.withLock({ $0 }), console.isInteractive {
                question = .newKey(target)
                console.print(Self.changedKeyQuestion(TerminalText.sanitized(name)))
                seat.stop()
                return .asking
            }
            console.print(error.message)
        } catch where target.isListed && !again && (error.code == .hostNotAnswering || error.code == .connectionFailed)
                    && Set(games.entry(for: game.peer)?.endpoints ?? game.endpoints) != Set(game.endpoints) {
            // Discovery resolved more addresses meanwhile (it reports a game at its first): try those too.
            seat.stop()
            let refreshed = JoinTarget(game: games.entry(for: game.peer) ?? game, route: .listed)
            return await join(refreshed, acceptingNewKey: acceptingNewKey, password: typed, again: true, saidJoining: true)
        } catch where target.isListed && error.code == .hostNotAnswering {
            games.markSilent(game.peer)
            console.print(Self.foundButSilent(hostName, at: game.endpoints))
        } catch where error.code == .wrongPeer && target.route == .code {
            console.print("This join code is for another host: someone else answered at its address, with another key. Ask the host for its code again.")
        } catch where error.code == .wrongPeer && !target.isListed {
            console.print("Another host answers at \(Endpoint.spokenList(game.endpoints)) than a moment ago, with another key: not joined.")
        } catch {
            if target.isListed, error.code != .wrongPeer { games.markSilent(game.peer) }
            console.print("Could not join \(hostName): \(error.message)")
        }
        seat.stop()
        return .notJoined
    }

    /// Asks for the password of `target`'s game at a terminal (``JoinResult/asking``), or tells
    /// a script to set it.
    func askPassword(for target: JoinTarget, acceptingNewKey: Bool) -> JoinResult {
        if wanted == nil, console.isInteractive {
            question = .password(target, acceptingNewKey: acceptingNewKey)
            console.hideNextLine(prompt: "Password for \(target.gameName) (not shown): ")
            return .asking
        }
        console.print(Self.passwordNeeded(target))
        return .notJoined
    }

    /// The request of one invitation to the game of `host`, and the answer to its challenge:
    /// with `secret`, a fresh ``Rooms/PasswordExchange`` of its password (each invitation needs its own).
    static func joinRequest(
        _ request: JoinRequest, from guest: PeerID, to host: PeerID, secret: (password: GamePassword, required: Bool)?
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
