import Foundation
@testable import GuessnumApp
import Multipeer
import Rooms
import Testing

/// The join flow as a state machine, driven without a terminal or a network: made-up facts
/// and invitation outcomes in, the steps out.
@Suite("Joining a game, step by step", .timeLimit(.minutes(1)))
struct JoinFlowTests {
    let endpoint = try! Endpoint(host: "10.0.0.1", port: 4000)

    func facts(canAsk: Bool = true, password: GamePassword? = nil, keyChanged: Bool = false) -> JoinFlow.Facts {
        JoinFlow.Facts(
            canAsk: canAsk, environmentPassword: password, keyChanged: keyChanged, knownHostsFile: "/home/bob/known_hosts",
            kinds: GameCatalog.kinds, timeout: .seconds(30))
    }

    /// alice's listed game, private or not, of `game` (guess-the-number when nil), at `endpoints`.
    func listed(isPrivate: Bool = false, game: String? = nil, endpoints: [Endpoint]? = nil) throws -> JoinTarget {
        let info = GameAdvertisement(range: 1...100, playerCount: 1, maximumPlayers: 10, round: 1, isPrivate: isPrivate, game: game).discoveryInfo
        return JoinTarget(game: DiscoveredPeer(peer: try PeerID(displayName: "alice"), endpoints: endpoints ?? [endpoint], info: info), route: .listed)
    }

    func code() throws -> JoinTarget {
        try #require(JoinTarget.address(endpoint, key: PeerKey.generate().fingerprint)).with(route: .code)
    }

    @Test("A listed host with another key than remembered: a person is asked, a script refused with the known hosts' file; a yes goes on to the invitation")
    func changedKey() throws {
        var asked = JoinFlow(try listed(), facts: facts(keyChanged: true))
        guard case .askNewKey(_, let name) = asked.start() else { Issue.record("not asked"); return }
        #expect(name == "alice")
        var script = JoinFlow(try listed(), facts: facts(canAsk: false, keyChanged: true))
        guard case .refuse(let sentence, let silent) = script.start() else { Issue.record("not refused"); return }
        #expect(sentence.contains("another key") && sentence.contains("/home/bob/known_hosts") && !silent)
        var accepted = JoinFlow(try listed(), facts: facts(keyChanged: true), acceptingNewKey: true)
        guard case .invite(_, let secret, let accepting, let announce) = accepted.start() else { Issue.record("not invited"); return }
        #expect(secret == nil && accepting && announce)
    }

    @Test("A game listed as private: the password asked for, the environment's sent as required, a script without one told to set it")
    func listedPrivate() throws {
        var person = JoinFlow(try listed(isPrivate: true), facts: facts())
        guard case .askPassword = person.start() else { Issue.record("not asked"); return }
        var environment = JoinFlow(try listed(isPrivate: true), facts: facts(password: try GamePassword("open sesame")))
        guard case .invite(_, let secret?, _, _) = environment.start() else { Issue.record("no password sent"); return }
        #expect(secret.required)
        var script = JoinFlow(try listed(isPrivate: true), facts: facts(canAsk: false))
        guard case .refuse(let sentence, _) = script.start() else { Issue.record("not refused"); return }
        #expect(sentence.contains(PasswordQuestion.environmentVariable))
    }

    @Test("A join code's game with the environment's password: sent in case, not required; said Connecting already, so no Joining")
    func codeWithPassword() throws {
        var flow = JoinFlow(try code(), facts: facts(password: try GamePassword("open sesame")))
        guard case .invite(_, let secret?, _, let announce) = flow.start() else { Issue.record("no password sent"); return }
        #expect(!secret.required && !announce)
    }

    @Test("A host that asks for the password after all: asked at a terminal; with the environment's, invited once more with it, without a second Joining")
    func passwordAfterAll() throws {
        var person = JoinFlow(try listed(), facts: facts())
        _ = person.start()
        guard case .askPassword = person.next(after: .declined(GameError.passwordNeeded.message)) else { Issue.record("not asked"); return }
        var environment = JoinFlow(try code(), facts: facts(password: try GamePassword("open sesame")))
        _ = environment.start()
        // Sent (not required) and still asked for: not asked again, turned away with the host's words.
        guard case .refuse = environment.next(after: .declined(GameError.passwordNeeded.message)) else { Issue.record("asked again"); return }
        var listed = JoinFlow(try listed(), facts: facts(password: try GamePassword("open sesame")))
        _ = listed.start()
        guard case .invite(_, let secret?, _, let announce) = listed.next(after: .declined(GameError.passwordNeeded.message)) else {
            Issue.record("not invited again"); return
        }
        #expect(secret.required && !announce)
    }

    @Test("A host that hosts another game than listed: invited again to play that one; a plain decline is said with the host's reason")
    func anotherGame() throws {
        var flow = JoinFlow(try listed(), facts: facts())
        _ = flow.start()
        let reason = GameError.wrongGame(hosted: GameCatalog.kinds[1], asked: "guessnum").message
        guard case .invite(let target, _, _, let announce) = flow.next(after: .declined(reason)) else { Issue.record("not invited again"); return }
        #expect(target.gameID == GameCatalog.kinds[1].id && !announce)
        guard case .refuse(let sentence, let silent) = flow.next(after: .declined("the game is full")) else { Issue.record("not refused"); return }
        #expect(sentence == "alice turned you away: the game is full." && !silent)
    }

    @Test("No answer: a listed game is marked as not answering; new addresses listed meanwhile are tried once, then the firewall's sentence")
    func notAnswering() throws {
        var timed = JoinFlow(try listed(), facts: facts())
        _ = timed.start()
        guard case .refuse(let sentence, true) = timed.next(after: .timedOut) else { Issue.record("not marked"); return }
        #expect(sentence.hasPrefix("alice did not answer within") && sentence.hasSuffix("the list marks the game as not answering."))
        var byCode = JoinFlow(try code(), facts: facts())
        _ = byCode.start()
        guard case .refuse(_, false) = byCode.next(after: .timedOut) else { Issue.record("a code's game marked"); return }

        let more = try listed(endpoints: [endpoint, try Endpoint(host: "10.0.0.9", port: 4000)]).game
        var flow = JoinFlow(try listed(), facts: facts())
        _ = flow.start()
        let silent = MultipeerError(.hostNotAnswering, "no answer")
        guard case .invite(let refreshed, _, _, false) = flow.next(after: .failed(silent, refusedName: nil, listedNow: more)) else {
            Issue.record("not tried at the new addresses"); return
        }
        #expect(refreshed.game.endpoints.count == 2)
        guard case .refuse(let firewall, true) = flow.next(after: .failed(silent, refusedName: nil, listedNow: more)) else {
            Issue.record("tried again"); return
        }
        #expect(firewall.contains("firewall"))
    }

    @Test("A join code's host answering under a name remembered with another key: a person is asked about that name, a script refused")
    func codeNameRefused() throws {
        let refused = MultipeerError(.hostRefused, "“alice” now has another key")
        var person = JoinFlow(try code(), facts: facts())
        _ = person.start()
        guard case .askNewKey(_, let name) = person.next(after: .failed(refused, refusedName: "alice", listedNow: nil)) else { Issue.record("not asked"); return }
        #expect(name == "alice")
        var script = JoinFlow(try code(), facts: facts(canAsk: false))
        _ = script.start()
        guard case .refuse(let sentence, false) = script.next(after: .failed(refused, refusedName: "alice", listedNow: nil)) else { Issue.record("not refused"); return }
        #expect(sentence == refused.message)
    }

    @Test("A game this program does not know is refused before any invitation, naming it")
    func unknownGame() throws {
        var flow = JoinFlow(try listed(game: "chess"), facts: facts())
        guard case .refuse(let sentence, false) = flow.start() else { Issue.record("invited"); return }
        #expect(sentence.contains("“chess”"))
    }
}

extension JoinTarget {
    /// This target reached another way.
    func with(route: Route) -> JoinTarget { JoinTarget(game: game, route: route, playing: playing) }
}
