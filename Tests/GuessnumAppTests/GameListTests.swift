@testable import GuessnumApp
import GuessnumGame
import GuessnumTerminal
import Multipeer
import Testing

@Suite("The list of games nearby", .timeLimit(.minutes(1)))
struct GameListTests {
    func game(_ name: String, players: Int, port: Int = 4000) throws -> DiscoveredPeer {
        try game(try PeerID(displayName: name), players: players, port: port)
    }

    /// `peer`'s game, announced with `players` players.
    func game(_ peer: PeerID, players: Int, port: Int = 4000) throws -> DiscoveredPeer {
        let info = GameAdvertisement(range: .standard, playerCount: players, maximumPlayers: 10, round: 1).discoveryInfo
        return DiscoveredPeer(peer: peer, endpoints: [try Endpoint(host: "10.0.0.1", port: port)], info: info)
    }

    @Test("When discovery is unavailable the header says so instead of searching; a game found clears it")
    func unavailableDiscovery() throws {
        let list = GameList(style: .plain)
        let problem = MultipeerError(.discoveryUnavailable, "avahi-daemon cannot be reached.")
        #expect(list.apply(.failed(problem)))
        #expect(list.render() == "avahi-daemon cannot be reached.")
        #expect(!list.apply(.failed(problem)), "said once: the same failure again changes nothing")
        #expect(list.apply(.found(try game("alice", players: 1))))
        #expect(list.render().hasPrefix("Searching for games… 1 found"))
        #expect(list.problem == nil)
    }

    @Test("A remembered game is listed once, marked, kept when discovery is unavailable, and replaced by discovery's entry for its host, even under a new name")
    func rememberedGames() throws {
        let list = GameList(style: .plain)
        let hal = try PeerID(displayName: "hal")
        let remembered = DiscoveredPeer(peer: hal, endpoints: [try Endpoint(host: "10.0.0.1", port: 4000)], info: DiscoveryInfo())
        #expect(list.addRemembered(remembered))
        #expect(!list.addRemembered(remembered), "listed once")
        #expect(list.render() == "Searching for games… 1 found\n  1) hal — remembered: not announced here, but answers where you joined it")
        list.apply(.failed(MultipeerError(.discoveryUnavailable, "avahi-daemon cannot be reached.")))
        #expect(list.render() == "avahi-daemon cannot be reached.\nGames you joined before that answer where they were:\n  1) hal — remembered: not announced here, but answers where you joined it")
        list.apply(.lost(hal))
        #expect(list.entry(1)?.peer == hal, "discovery cannot lose what it did not find")
        let renamed = try PeerID(displayName: "hal 2", identity: hal.identity)
        list.apply(.found(try game(renamed, players: 2)))
        #expect(list.render() == "Searching for games… 1 found\n  1) hal 2 — numbers 1–100, 2/10 players, round 1")
        #expect(!list.addRemembered(remembered), "discovery lists that host already")
    }

    @Test("A game whose host did not answer is marked until it is announced anew")
    func silentGame() throws {
        let list = GameList(style: .plain)
        let alice = try game("alice", players: 1)
        list.apply(.found(alice))
        list.markSilent(alice.peer)
        #expect(list.render().contains("1) alice — numbers 1–100, 1/10 players, round 1, not answering"))
        list.apply(.updated(try game(alice.peer, players: 2)))
        #expect(!list.render().contains("not answering"))
    }

    @Test("After leaving a game its count is one lower until the host's next announcement; a game that ended is gone")
    func afterLeaving() throws {
        let list = GameList(style: .plain)
        let alice = try game("alice", players: 3)
        let carol = try game("carol", players: 2, port: 4001)
        list.apply(.found(alice))
        list.apply(.found(carol))
        list.noteLeft(alice.peer, ended: false)
        #expect(list.render().contains("1) alice — numbers 1–100, 2/10 players"), "\(list.render())")
        list.apply(.updated(try game(alice.peer, players: 5)))
        #expect(list.render().contains("1) alice — numbers 1–100, 5/10 players"), "the host's word wins again")
        list.noteLeft(carol.peer, ended: true)
        #expect(!list.render().contains("carol"))
        #expect(list.render().hasPrefix("Searching for games… 1 found"))
    }

    @Test("The corrected count after leaving lasts until the host has surely announced the change")
    func correctionExpires() throws {
        let list = GameList(style: .plain)
        let alice = try game("alice", players: 1)
        list.apply(.found(alice))
        let now = ContinuousClock.now
        list.noteLeft(alice.peer, ended: false, at: now)
        #expect(list.render(at: now).contains("0/10 players"))
        #expect(list.render(at: now + GameList.leftCorrection + .milliseconds(1)).contains("1/10 players"),
                "the host announced an unchanged count (not reported again): the announced one is shown")
        #expect(list.renderIfChanged(at: now) != nil)
        #expect(list.renderIfChanged(at: now) == nil, "printed once")
    }

    @Test("Numbers pick games in the order found; out of range is nil")
    func numbering() throws {
        let list = GameList(style: .plain)
        #expect(list.entry(1) == nil && list.entry(0) == nil)
        list.apply(.found(try game("alice", players: 1)))
        #expect(list.entry(1)?.peer.displayName == "alice")
        #expect(list.entry(2) == nil && list.entry(-1) == nil)
    }
}
