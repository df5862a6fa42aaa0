import Foundation
@testable import GuessnumApp
import GuessnumGame
import GuessnumTerminal
import Multipeer
import MultipeerTestSupport
import Testing

@Suite("The list of games nearby", .timeLimit(.minutes(1)))
struct GameListTests {
    func game(_ name: String, players: Int, port: Int = 4000) throws -> DiscoveredPeer {
        try game(try PeerID(displayName: name), players: players, port: port)
    }

    /// `peer`'s game, announced with `players` players.
    func game(_ peer: PeerID, players: Int, port: Int = 4000) throws -> DiscoveredPeer {
        let info = GameAdvertisement(range: 1...100, playerCount: players, maximumPlayers: 10, round: 1).discoveryInfo
        return DiscoveredPeer(peer: peer, endpoints: [try Endpoint(host: "10.0.0.1", port: port)], info: info)
    }

    @Test("A second game of one person, announcing the person's key beside its own, is marked played before where the person is known, not another key; a game under that name without it is")
    func onePersonTwoGames() throws {
        let known = KnownHosts(fileURL: Scratch.path("guessnum-known").appendingPathComponent("known_hosts"))
        defer { try? FileManager.default.removeItem(at: known.fileURL.deletingLastPathComponent()) }
        let person = PeerKey.generate()
        try known.remember("alice", key: person.fingerprint)
        let second = PeerKey.generate()
        var announced = GameAdvertisement(range: nil, playerCount: 0, maximumPlayers: 2, round: 1, game: "tictactoe")
        announced.owner = person.fingerprint.identity
        let endorsed = DiscoveredPeer(
            peer: try second.peer(displayName: "alice"), endpoints: [try Endpoint(host: "10.0.0.1", port: 4001)], info: announced.discoveryInfo)
        #expect(GameAdvertisement(decoding: endorsed.info).owner == person.fingerprint.identity)
        let list = GameList(style: .plain, knownHosts: known)
        list.apply(.found(endorsed))
        #expect(list.wholeList().contains("1) alice — tic-tac-toe") && list.wholeList().contains("played before"), "\(list.wholeList())")
        #expect(!list.wholeList().contains("ANOTHER KEY"), "\(list.wholeList())")

        let other = GameList(style: .plain, knownHosts: known)
        other.apply(.found(try game(try PeerKey.generate().peer(displayName: "alice"), players: 1)))
        #expect(other.wholeList().contains("ANOTHER KEY"), "\(other.wholeList())")

        // On a LAN, Avahi lists the second game as "alice #2": beside the person's first game it
        // reads as alice's, under its own game's name; alone, or beside someone else's, it does not.
        let both = GameList(style: .plain)
        let renamed = DiscoveredPeer(
            peer: try second.peer(displayName: "alice #2"), endpoints: [try Endpoint(host: "10.0.0.1", port: 4001)], info: announced.discoveryInfo)
        both.apply(.found(renamed))
        #expect(both.wholeList().contains("1) alice #2 — tic-tac-toe"), "\(both.wholeList())")
        both.apply(.found(try game(try person.peer(displayName: "alice"), players: 1)))
        #expect(both.wholeList().contains("1) alice — tic-tac-toe") && both.wholeList().contains("2) alice — numbers 1–100"), "\(both.wholeList())")
        guard case .game(let picked)? = both.pick(1) else {
            Issue.record("the second game is picked")
            return
        }
        #expect(picked.peer.displayName == "alice" && picked.peer.identity == second.fingerprint.identity, "joined, and named, as alice's: \(picked.peer)")
        let impostor = GameList(style: .plain)
        impostor.apply(.found(renamed))
        impostor.apply(.found(try game(try PeerKey.generate().peer(displayName: "alice"), players: 1)))
        #expect(impostor.wholeList().contains("1) alice #2 — tic-tac-toe"), "\(impostor.wholeList())")
    }

    @Test("When discovery is unavailable the list says so once, in a player's words with the join code; a game found clears it")
    func unavailableDiscovery() throws {
        let list = GameList(style: .plain)
        let problem = MultipeerError(.discoveryUnavailable, "avahi-daemon is not running, so peers can neither be announced nor found on the LAN; start it (for example `systemctl start avahi-daemon`) and discovery resumes by itself. Meanwhile peers can still connect directly by address (HOST:PORT).")
        list.apply(.failed(problem))
        let notice = "Games nearby can't be found: avahi-daemon is not running, so games can't be found on the LAN; start it (for example `systemctl start avahi-daemon`) and discovery resumes by itself. Meanwhile you can still join a game by the join code or the address (HOST:PORT) its host printed: guessnum join CODE."
        #expect(list.changes() == nil, "nothing is printed before the list is shown")
        #expect(list.wholeList() == notice)
        list.apply(.failed(problem))
        #expect(list.changes() == nil, "said once: the same failure again changes nothing")
        list.apply(.found(try game("alice", players: 1)))
        #expect(list.changes() == "Games nearby can be found again; they are listed as they are found.\n  1) alice — numbers 1–100, 1/10 players, round 1")
        #expect(list.problem == nil)
        #expect(list.wholeList().hasPrefix("Searching for games… 1 found"))
    }

    @Test("When the LAN's discovery fails but the site's zone still lists games, the list says so once and goes on listing them")
    func partlyUnavailableDiscovery() throws {
        let list = GameList(style: .plain)
        list.apply(.found(try game("alice", players: 1)))
        list.apply(.failed(MultipeerError(.discoveryPartlyUnavailable, "avahi-daemon is not running, so peers can neither be announced nor found on the LAN; start it (for example `systemctl start avahi-daemon`) and discovery resumes by itself. Meanwhile peers can still connect directly by address (HOST:PORT).")))
        let notice = "Games on this LAN can't be found: avahi-daemon is not running, so games can't be found on the LAN; start it (for example `systemctl start avahi-daemon`) and discovery resumes by itself. The games your site's DNS server lists are still shown."
        #expect(list.wholeList() == "Searching for games… 1 found\n" + notice + "\n  1) alice — numbers 1–100, 1/10 players, round 1")
        #expect(list.problem == nil, "not the notice that no game can be found")
        list.apply(.found(try game("carol", players: 0)))
        #expect(list.changes() == "  2) carol — numbers 1–100, 0/10 players, round 1", "said once; the list goes on")
    }

    @Test("A remembered game is listed once, marked, kept when discovery is unavailable, and replaced under its number by discovery's entry for its host, even under a new name")
    func rememberedGames() throws {
        let list = GameList(style: .plain)
        let hal = try PeerID(displayName: "hal")
        let remembered = DiscoveredPeer(peer: hal, endpoints: [try Endpoint(host: "10.0.0.1", port: 4000)], info: DiscoveryInfo())
        #expect(list.addRemembered(remembered))
        #expect(!list.addRemembered(remembered), "listed once")
        let line = "  1) hal — remembered: not announced here, but answers where you joined it (range, players and round unknown)"
        #expect(list.wholeList() == "Searching for games… 1 found\n" + line)
        list.apply(.failed(MultipeerError(.discoveryUnavailable, "avahi-daemon cannot be reached.")))
        #expect(list.wholeList() == "Games nearby can't be found: avahi-daemon cannot be reached. Meanwhile you can still join a game by the join code or the address (HOST:PORT) its host printed: guessnum join CODE.\nGames you joined before that answer where they were:\n" + line)
        list.apply(.lost(hal))
        #expect(list.entry(1)?.peer == hal, "discovery cannot lose what it did not find")
        let renamed = try PeerID(displayName: "hal 2", identity: hal.identity)
        list.apply(.found(try game(renamed, players: 2)))
        #expect(list.changes()?.hasSuffix("  1) hal 2 — numbers 1–100, 2/10 players, round 1") == true)
        #expect(!list.addRemembered(remembered), "discovery lists that host already")
    }

    @Test("A game whose host did not answer is marked until a check finds it answering or it is announced anew")
    func silentGame() throws {
        let list = GameList(style: .plain)
        let alice = try game("alice", players: 1)
        list.apply(.found(alice))
        _ = list.wholeList()
        let checkBegan = ContinuousClock.now
        list.markSilent(alice.peer)
        #expect(list.changes() == "  1) alice — numbers 1–100, 1/10 players, round 1, not answering")
        #expect(list.silentGames.map(\.peer) == [alice.peer])
        list.answered(alice.peer, checkedAt: checkBegan)
        #expect(list.changes() == nil, "a check begun before the game was found silent says nothing of now")
        list.answered(alice.peer, checkedAt: .now)
        #expect(list.changes() == "  1) alice — numbers 1–100, 1/10 players, round 1")
        #expect(list.silentGames.isEmpty)
        list.markSilent(alice.peer)
        list.apply(.updated(try game(alice.peer, players: 2)))
        #expect(list.changes() == "  1) alice — numbers 1–100, 2/10 players, round 1")
    }

    @Test("After leaving a game its count is one lower until the host's next announcement; a game that ended is gone")
    func afterLeaving() throws {
        let list = GameList(style: .plain)
        let alice = try game("alice", players: 3)
        let carol = try game("carol", players: 2, port: 4001)
        list.apply(.found(alice))
        list.apply(.found(carol))
        list.noteLeft(alice.peer, ended: false)
        #expect(list.wholeList().contains("1) alice — numbers 1–100, 2/10 players"))
        list.apply(.updated(try game(alice.peer, players: 5)))
        #expect(list.changes() == "  1) alice — numbers 1–100, 5/10 players, round 1", "the host's word wins again")
        list.noteLeft(carol.peer, ended: true)
        #expect(list.changes() == "  2) carol's game is no longer listed")
        #expect(list.wholeList() == "Searching for games… 1 found\n  1) alice — numbers 1–100, 5/10 players, round 1")
    }

    @Test("A kicked player reads the count the host announced after the kick, not one fewer again")
    func afterKick() throws {
        let list = GameList(style: .plain)
        let alice = try game("alice", players: 4)
        let start = ContinuousClock.now
        list.apply(.found(alice), at: start)
        // The host kicked this player at start + 1 s and announced 3 players at once; the kick's
        // word reached the seat at start + 1 s, the announcement the list at start + 1.2 s, and
        // the player is back at the list at start + 1.5 s.
        list.apply(.updated(try game(alice.peer, players: 3)), at: start + .milliseconds(1_200))
        list.noteLeft(alice.peer, ended: false, departure: start + .seconds(1), at: start + .milliseconds(1_500))
        #expect(list.wholeList(at: start + .milliseconds(1_500)).contains("1) alice — numbers 1–100, 3/10 players"), "\(list.wholeList())")
        // Before the new announcement arrives, the count is one fewer than announced.
        let other = GameList(style: .plain)
        other.apply(.found(alice), at: start)
        other.noteLeft(alice.peer, ended: false, departure: start + .seconds(1), at: start + .milliseconds(1_100))
        #expect(other.wholeList(at: start + .milliseconds(1_100)).contains("1) alice — numbers 1–100, 3/10 players"), "\(other.wholeList())")
    }

    @Test("The corrected count after leaving lasts until the host has surely announced the change")
    func correctionExpires() throws {
        let list = GameList(style: .plain)
        let alice = try game("alice", players: 1)
        list.apply(.found(alice))
        let now = ContinuousClock.now
        list.noteLeft(alice.peer, ended: false, at: now)
        #expect(list.wholeList(at: now).contains("0/10 players"))
        #expect(list.changes(at: now) == nil)
        #expect(list.changes(at: now + GameList.leftCorrection + .milliseconds(1)) == "  1) alice — numbers 1–100, 1/10 players, round 1",
                "the host announced an unchanged count (not reported again): the announced one is shown")
        #expect(list.changes(at: now + GameList.leftCorrection + .milliseconds(1)) == nil, "printed once")
    }

    @Test("Numbers pick games in the order found; out of range is nil")
    func numbering() throws {
        let list = GameList(style: .plain)
        #expect(list.entry(1) == nil && list.entry(0) == nil)
        list.apply(.found(try game("alice", players: 1)))
        #expect(list.entry(1)?.peer.displayName == "alice")
        #expect(list.entry(2) == nil && list.entry(-1) == nil)
    }

    @Test("While the list is shown numbers never move: a game that goes keeps its number as gone, one that comes back takes it again, changes are single lines; the whole list renumbers")
    func stableNumbers() throws {
        let list = GameList(style: .plain)
        let alice = try game("alice", players: 1)
        let bob = try game("bob", players: 2, port: 4001)
        let carol = try game("carol", players: 0, port: 4002)
        list.apply(.found(alice))
        list.apply(.found(bob))
        #expect(list.wholeList() == "Searching for games… 2 found\n  1) alice — numbers 1–100, 1/10 players, round 1\n  2) bob — numbers 1–100, 2/10 players, round 1")
        list.apply(.lost(alice.peer))
        #expect(list.changes() == "  1) alice's game is no longer listed", "one short line, not the whole list")
        list.apply(.found(carol))
        #expect(list.changes() == "  3) carol — numbers 1–100, 0/10 players, round 1", "a new game takes a new number, never a gone one's")
        #expect(list.entry(2)?.peer == bob.peer && list.entry(3)?.peer == carol.peer)
        guard case .gone("alice")? = list.pick(1) else { Issue.record("number 1 is alice's, gone"); return }
        #expect(list.entry(1) == nil, "a gone game is not joined")
        list.apply(.updated(try game(bob.peer, players: 3, port: 4001)))
        #expect(list.changes() == "  2) bob — numbers 1–100, 3/10 players, round 1")
        list.apply(.found(try game(alice.peer, players: 1, port: 4005)))
        #expect(list.changes() == "  1) alice — numbers 1–100, 1/10 players, round 1", "back under its own number")
        list.apply(.lost(bob.peer))
        #expect(list.changes() == "  2) bob's game is no longer listed")
        #expect(list.changes() == nil)
        #expect(list.wholeList() == "Searching for games… 2 found\n  1) alice — numbers 1–100, 1/10 players, round 1\n  2) carol — numbers 1–100, 0/10 players, round 1",
                "printed whole, the list drops the gone and numbers the rest anew")
        #expect(list.entry(2)?.peer == carol.peer)
    }

    @Test("With --json each game is one JSON object: number, name, range, players, round, private, flags")
    func jsonLines() throws {
        let list = GameList(style: .plain)
        // What `--json`'s console writes for lines of the list.
        let json = { (lines: [ScreenLine]) -> String in
            let inner = ScriptedConsole()
            JSONConsole(wrapping: inner).print(lines)
            return inner.lines.joined(separator: "\n")
        }
        let info = GameAdvertisement(range: 1...50, playerCount: 0, maximumPlayers: 8, round: 2, isPrivate: true).discoveryInfo
        let carol = DiscoveredPeer(peer: try PeerID(displayName: "carol"), endpoints: [try Endpoint(host: "10.0.0.1", port: 4000)], info: info)
        list.apply(.found(carol))
        let lines = json(list.wholeListLines()).split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines[0] == #"{"event":"message","text":"Searching for games… 1 found"}"#)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect(object["event"] as? String == "game")
        let data = try #require(object["data"] as? [String: Any])
        #expect(data["number"] as? Int == 1 && data["name"] as? String == "carol")
        #expect((data["range"] as? [String: Any])?["lower"] as? Int == 1 && (data["range"] as? [String: Any])?["upper"] as? Int == 50)
        #expect(data["players"] as? Int == 0 && data["maximumPlayers"] as? Int == 8 && data["round"] as? Int == 2)
        #expect(data["private"] as? Bool == true && data["gone"] as? Bool == false)
        list.markSilent(carol.peer)
        let changed = json(try #require(list.changeLines()))
        let flags = ((try JSONSerialization.jsonObject(with: Data(changed.utf8)) as? [String: Any])?["data"] as? [String: Any])?["flags"] as? [String]
        #expect(flags == ["not answering"])
    }
}
