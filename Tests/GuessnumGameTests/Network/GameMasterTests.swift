import EventBus
import Foundation
import GuessnumGame
import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Testing

/// A room of guess-the-number with several guests, over the in-memory network and over real TCP on
/// loopback. The secret is fixed at 42 in 1–100.
@Suite("Playing over a network", .timeLimit(.minutes(2)))
struct GameMasterTests {
    static func configuration(pause: Duration = .seconds(60)) -> GuessHosting {
        var configuration = GuessHosting(range: .standard, secretSource: .fixed(42))
        configuration.room.pauseBetweenRounds = pause
        return configuration
    }

    @Test("A verdict reaches the guesser at once and everyone else in the broadcast, once each", arguments: Network.allCases)
    func verdictsReachEveryone(network: Network) async throws {
        try await withGame(network, configuration: Self.configuration()) { game in
            let bob = try await game.join("bob")
            let carol = try await game.join("carol")
            let dave = try await game.join("dave")
            let bobData = EventLog(bob.session.events, .dataReceived)

            #expect(try bob.game.submit(line: "50") == .guess(50))
            let own = try #require(await bob.verdicts.first { $0.player.id == bob.id })
            #expect(own.verdict == .tooHigh)
            #expect(own.displayText == "bob guessed 50: too high")
            #expect(bob.game.lastVerdict == own)
            for other in [carol, dave] {
                let seen = await other.verdicts.first { $0.sequence == own.sequence }
                #expect(seen?.displayText == "bob guessed 50: too high", "\(other.name) reads bob's verdict")
            }
            #expect(await game.hostVerdicts.first { $0.sequence == own.sequence } != nil)

            // Bob's copy came directly, and again in the broadcast, which his game did not post twice.
            #expect(await bobData.first { $0.messageType == JudgedGuess.messageType } != nil)
            #expect(await eventually { bob.game.history.contains(own.judgement) })
            // The broadcast may come after the direct reply: waited for, then no second post.
            #expect(await eventually {
                bobData.all.filter { $0.messageType == HistoryBatch.messageType }
                    .contains { (try? $0.decode(HistoryBatch.self).items.contains(.verdict(own))) == true }
            })
            #expect(bob.verdicts.all.filter { $0.sequence == own.sequence }.count == 1)

            // Out of range: carol alone is told; nothing is broadcast, kept or counted.
            #expect(try carol.game.submit(line: "500") == .guess(500))
            let outside = try #require(await carol.errors.first { _ in true })
            #expect(outside.code == .guessOutOfRange)
            #expect(outside.message == "500 is out of range: guess a number from 1 to 100.")
            #expect(try carol.game.submit(line: "60") == .guess(60))
            let next = try #require(await bob.verdicts.first { $0.player.id == carol.id })
            #expect(next.guess == 60, "bob reads carol's next guess, and never the one out of range")
            #expect(!carol.verdicts.all.contains { $0.guess == 500 } && !dave.verdicts.all.contains { $0.guess == 500 })
            #expect(game.room.currentRound?.history.contains { $0.guess == 500 } == false)
            #expect(game.room.currentRound?.guesses(by: bob.id) == 1)
            #expect(game.room.currentRound?.guesses(by: carol.id) == 1)
        }
    }

    @Test("Chat lines are relayed by the host to everyone, and the host's own too", arguments: Network.allCases)
    func chatRelayed(network: Network) async throws {
        try await withGame(network, configuration: Self.configuration()) { game in
            let bob = try await game.join("bob")
            let carol = try await game.join("carol")

            #expect(try bob.game.submit(line: "is it 42?") == .chat("is it 42?"))
            #expect(try bob.game.submit(line: "   ") == .ignored)
            for guest in [bob, carol] {
                #expect(await guest.chats.first { $0.displayText == "bob: is it 42?" } != nil, "\(guest.name) reads bob")
            }
            #expect(await game.hostChats.first { $0.text == "is it 42?" } != nil)

            try game.room.say("welcome, all")
            for guest in [bob, carol] {
                #expect(await guest.chats.first { $0.displayText == "alice: welcome, all" } != nil, "\(guest.name) reads the host")
            }
            #expect(throws: GameError.self) { try bob.game.say(String(repeating: "x", count: 501)) }
            #expect(game.room.currentRound?.judgedCount == 0, "chat is not a guess")
        }
    }

    @Test("A win ends the round for everyone, each checks the host was honest, and the next round starts", arguments: Network.allCases)
    func winAndNextRound(network: Network) async throws {
        try await withGame(network, configuration: Self.configuration(pause: .milliseconds(300))) { game in
            let bob = try await game.join("bob")
            let carol = try await game.join("carol")
            let commitment = try #require(bob.welcomes.all.first?.game.commitment)

            try carol.game.guess(30)
            try bob.game.guess(42)
            let mine = try #require(await bob.verdicts.first { $0.player.id == bob.id && $0.verdict == .correct })
            #expect(mine.round == 1)
            for guest in [bob, carol] {
                let won = try #require(await guest.roundsWon.first { $0.round == 1 }, "\(guest.name) hears of the win")
                #expect(won.winner?.id == bob.id)
                #expect(won.secret == 42)
                #expect(won.commitment == commitment)
                let check = try #require(await guest.fairness.first { $0.round == 1 })
                #expect(check.isHonest, "\(check)")
                #expect(guest.game.fairnessChecks[1]?.isHonest == true)
                let next = try #require(await guest.roundsStarted.first { $0.round == 2 }, "\(guest.name) sees round 2 start")
                #expect(next.commitment != commitment, "a new round commits with a new salt")
            }
            #expect(game.room.currentRound?.number == 2)
            #expect(game.room.rules.scoreboard.entry(for: bob.id)?.wins == 1)
            #expect(game.room.rules.scoreboard.entry(for: bob.id)?.bestRound == 1)
            #expect(await eventually { bob.game.scoreboard.first?.player.id == bob.id })

            try carol.game.guess(42)
            #expect(await carol.verdicts.first { $0.player.id == carol.id && $0.round == 2 }?.verdict == .correct)
        }
    }

    @Test("A guess after the win gets a clear answer, and the host can start a round with a new range", arguments: Network.allCases)
    func guessAfterWinAndNewRange(network: Network) async throws {
        try await withGame(network, configuration: Self.configuration()) { game in
            let bob = try await game.join("bob")
            let carol = try await game.join("carol")
            try bob.game.guess(42)
            #expect(await carol.roundsWon.first { _ in true } != nil)

            try carol.game.guess(42)
            let late = try #require(await carol.verdicts.first { $0.player.id == carol.id })
            #expect(late.verdict == .roundOver)
            #expect(late.verdict.description == "round already won")

            try game.room.newRound { rules throws(GameError) in try rules.prepareRound(asked: "-50-50") }
            for guest in [bob, carol] {
                let started = try #require(await guest.roundsStarted.first { $0.round == 2 })
                #expect(started.range == (try GuessRange(-50, 50)))
                #expect(await eventually { guest.game.range == started.range && guest.game.history.isEmpty })
            }
            try carol.game.guess(-50)
            #expect(await carol.verdicts.first { $0.player.id == carol.id && $0.round == 2 }?.verdict == .tooLow)
            #expect(throws: GameError.self) { try game.room.newRound { rules throws(GameError) in try rules.prepareRound(asked: "1-10") } }
            #expect(game.room.currentRound?.number == 2, "a range without the fixed secret starts nothing")
        }
    }

    @Test("A late joiner gets the round so far: range, commitment, history and players", arguments: Network.allCases)
    func lateJoiner(network: Network) async throws {
        try await withGame(network, configuration: Self.configuration()) { game in
            let bob = try await game.join("bob")
            for guess in ["10", "90", "40"] { try bob.game.submit(line: guess) }
            #expect(await bob.verdicts.count(atLeast: 3) { $0.player.id == bob.id } == 3)
            #expect(await eventually { game.room.currentRound?.history.count == 3 })

            let erin = try await game.join("erin")
            let welcome = try #require(erin.welcomes.all.first)
            #expect(welcome.you.name == "erin")
            #expect(welcome.game.round == 1)
            #expect(welcome.game.range == .standard)
            #expect(welcome.game.commitment == game.room.currentRound?.commitment)
            #expect(welcome.game.history.map(\.displayText) == ["bob guessed 10: too low", "bob guessed 90: too high", "bob guessed 40: too low"])
            #expect(Set(welcome.game.players.map(\.name)) == ["bob", "erin"])
            #expect(erin.game.history.count == 3)
            #expect(await bob.joins.first { $0.player.name == "erin" } != nil, "bob reads that erin joined")

            try erin.game.guess(41)
            #expect(await bob.verdicts.first { $0.player.id == erin.id }?.displayText == "erin guessed 41: too low")
        }
    }

    @Test("A guest flooding guesses is throttled and told so, while others still get answers", arguments: Network.allCases)
    func floodingThrottled(network: Network) async throws {
        try await withGame(network, configuration: Self.configuration()) { game in
            let flooder = try await game.join("flood")
            let carol = try await game.join("carol")

            for _ in 0..<300 { try flooder.game.guess(1) }
            try carol.game.guess(99)
            #expect(await carol.verdicts.first { $0.player.id == carol.id }?.verdict == .tooHigh, "carol is answered")
            let warning = try #require(await flooder.errors.first { _ in true })
            #expect(warning.code == .throttled)
            #expect(warning.message.hasPrefix("slow down: at most 20 guesses a second"))

            // Everything the flooder sent has been handled once a later line of its own is. The
            // flood may have left it over its message budget for a moment (what comes then is
            // ignored unread), so it says "done" until the host hears it, once a second at most.
            var heard = false
            for _ in 0..<30 where !heard {
                try flooder.game.say("done")
                heard = await game.hostChats.first(within: .seconds(1)) { $0.from.id == flooder.id } != nil
                if !heard { await game.advanceMemoryClock(by: .seconds(1)) }  // the budget refills with time
            }
            #expect(heard, "the host never heard the flooder's line")
            let judged = try #require(game.room.currentRound).guesses(by: flooder.id)
            #expect(judged >= 5 && judged < 300, "judged \(judged) of 300")
            #expect(flooder.errors.all.count < 10, "one warning a second, not one per guess")
            #expect(await flooder.verdicts.count(atLeast: judged) { $0.player.id == flooder.id } == judged)
        }
    }

    @Test("Duplicate display names are made unique for everyone", arguments: Network.allCases)
    func duplicateNames(network: Network) async throws {
        try await withGame(network, configuration: Self.configuration()) { game in
            let first = try await game.join("bob")
            let second = try await game.join("bob")
            #expect(first.welcomes.all.first?.you.name == "bob")
            #expect(second.welcomes.all.first?.you.name == "bob (2)")
            #expect(await first.joins.first { $0.player.id == second.id }?.player.name == "bob (2)")
            try second.game.submit(line: "hi")
            #expect(await first.chats.first { _ in true }?.displayText == "bob (2): hi")
            #expect(Set(game.room.seated.map(\.player.name)) == ["bob", "bob (2)"])
        }
    }

    @Test("With no grace period, a guest that vanishes without a goodbye is removed from the game and the player list", arguments: Network.allCases)
    func vanishingGuest(network: Network) async throws {
        var configuration = Self.configuration()
        configuration.room.awayGracePeriod = .zero
        try await withGame(network, configuration: configuration) { game in
            let list = PlayerListViewModel(sessionEvents: game.host.events, gameEvents: game.events)
            let bob = try await game.join("bob")
            let bobLeaves = EventLog(bob.game.events, .playerLeft)
            let ghost = peer("ghost")
            let hello = FrameCodec.encode(.hello(.init(peer: ghost, invitationTimeoutMilliseconds: 5000, codeCommitment: SampleFrames.codeCommitment, context: Data()))).bytes

            let vanish: @Sendable () -> Void
            switch network {
            case .inMemory:
                let raw = try await game.memory.openRawConnection(toPort: game.port)
                raw.send(bytes: hello)
                vanish = { raw.close() }
            case .tcp:
                let raw = try RawSocket(port: game.port)
                try raw.write(hello)
                vanish = { raw.close() }
            }
            #expect(await eventually { game.room.seated.contains { $0.player.id == ghost.identity } })
            #expect(await bob.joins.first { $0.player.id == ghost.identity } != nil)
            #expect(await eventually { list.row(for: ghost.identity)?.presence == .connected })

            vanish()
            #expect(await game.hostLeaves.first { $0.player.id == ghost.identity } != nil)
            #expect(!game.room.seated.contains { $0.player.id == ghost.identity })
            #expect(game.room.seated.map(\.player.name) == ["bob"])
            #expect(await bobLeaves.first { $0.player.id == ghost.identity }?.playerCount == 1)
            #expect(await eventually { list.row(for: ghost.identity)?.presence == .gone })
            #expect(list.row(for: bob.id)?.presence == .connected)
            try bob.game.guess(42)
            #expect(await bob.verdicts.first { $0.player.id == bob.id }?.verdict == .correct, "the game goes on")
            #expect(await eventually { list.row(for: bob.id)?.wins == 1 })
        }
    }

    @Test("Undecodable and unknown messages are ignored, never fatal, and logged once per guest and kind", arguments: Network.allCases)
    func badMessages(network: Network) async throws {
        try await withGame(network, configuration: Self.configuration()) { game in
            let bob = try await game.join("bob")
            let host = game.host.localPeer
            try bob.session.send(Data("not json".utf8), messageType: GuessMessage.messageType, to: [host])
            try bob.session.send(Data("{}".utf8), messageType: "guessnum.v1.teleport", to: [host])
            try bob.session.send(Data([0xFF, 0x00]), to: [host])
            try bob.session.send(Chat(text: "old client"), to: [host])
            try bob.game.guess(50)
            #expect(await bob.verdicts.first { $0.player.id == bob.id }?.verdict == .tooHigh)
            let notices = game.hostLog.all.filter { $0.level == .notice && $0["peer"] == "bob" }
            #expect(notices.map { $0["reason"] } == ["undecodable", "unknownType"], "one line per kind: \(notices)")
            #expect(notices.contains { $0["type"] == "guessnum.v1.teleport" })
            #expect(bob.session.connectedPeers == [host])
        }
    }
}
