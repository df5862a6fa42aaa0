import EventBus
import Foundation
@testable import GuessnumGame
import Multipeer
import MultipeerTestSupport
import Testing

/// Guests that send what an honest program would not: huge chat lines, floods of messages the
/// host cannot use, names that hide characters. The secret is fixed at 42 in 1–100.
@Suite("Hostile guests", .timeLimit(.minutes(2)))
struct HostileGuestTests {
    static func configuration() -> GuessHosting {
        var configuration = GuessHosting(range: .standard, secretSource: .fixed(42))
        configuration.room.pauseBetweenRounds = .seconds(60)
        return configuration
    }

    /// 500 characters, each a letter under 30 stacked combining marks: about 30 KB.
    static let stackedMarks = String(repeating: "a" + String(repeating: "\u{0301}", count: 30), count: 500)

    @Test("A chat line of 500 characters with stacked combining marks is refused by its bytes, by the guest and by the host")
    func chatBytes() async throws {
        #expect(Self.stackedMarks.count == 500)
        try await withGame(.inMemory, configuration: Self.configuration()) { game in
            let bob = try await game.join("bob")
            let carol = try await game.join("carol")

            let error = #expect(throws: GameError.self) { try bob.game.say(Self.stackedMarks) }
            #expect(error?.code == .chatTooLong)
            #expect(error?.message.contains("above the limit of 2000 bytes") == true, "\(String(describing: error))")

            // Sent around the guest's check, the host refuses it and says why: 500 characters of five
            // marks each, 5,500 bytes (small enough to be read; bigger payloads are refused unread).
            let fiveMarks = String(repeating: "a" + String(repeating: "\u{0301}", count: 5), count: 500)
            #expect(fiveMarks.count == 500 && fiveMarks.utf8.count == 5_500)
            try bob.session.send(ChatMessage(text: fiveMarks), to: [game.host.localPeer])
            let refusal = try #require(await bob.errors.first { _ in true })
            #expect(refusal.code == .chatTooLong)
            #expect(refusal.message.contains("takes 5500 bytes, above the limit of 2000 bytes"), "\(refusal.message)")
            try bob.game.say("short and fine")
            #expect(await carol.chats.first { _ in true }?.text == "short and fine", "only the line within the limits is relayed")
            #expect(game.hostChats.all.map(\.text) == ["short and fine"])
            #expect(game.hostLog.all.contains { $0.level == .notice && $0["reason"] == "chatTooLong" && $0["peer"] == "bob" })
        }
    }

    @Test("A chat payload far beyond the limit is refused without being decoded")
    func oversizedChatPayload() async throws {
        try await withGame(.inMemory, configuration: Self.configuration()) { game in
            let bob = try await game.join("bob")
            let payload = Data(repeating: UInt8(ascii: "x"), count: RoomProtocol.maximumChatPayloadBytes + 1)
            try bob.session.send(payload, messageType: ChatMessage.messageType, to: [game.host.localPeer])
            #expect(await bob.errors.first { _ in true }?.code == .chatTooLong)
            #expect(!game.hostLog.all.contains { $0["reason"] == "undecodable" }, "not decoded, so not undecodable")
        }
    }

    @Test("A flood of unknown messages from one guest is cut off with a reason, logged once; an honest guest keeps playing", arguments: Network.allCases)
    func unknownFlood(network: Network) async throws {
        var configuration = Self.configuration()
        configuration.room.messagesPerSecond = 20
        configuration.room.messageBurst = 20
        configuration.room.overBudgetPeriodBeforeDisconnect = .milliseconds(500)
        try await withGame(network, configuration: configuration) { game in
            let flooder = try await game.join("flood")
            let honest = try await game.join("carol")
            let flooderGone = EventLog(flooder.session.events, .stateChanged)
            let honestChanges = EventLog(honest.session.events, .stateChanged)

            let host = game.host.localPeer
            let flood = Task.detached {
                var sent = 0
                let deadline = ContinuousClock.now + .seconds(20)
                while sent < 200_000, ContinuousClock.now < deadline, flooder.session.state(of: host) == .connected {
                    do { try flooder.session.send(Data("{}".utf8), messageType: "guessnum.v1.teleport", to: [host]) } catch { break }
                    sent += 1
                    if sent % 100 == 0 { try? await Task.sleep(for: .milliseconds(10)) }  // up to 10,000 a second
                }
                return sent
            }
            for guess: Int64 in [10, 20, 30] {
                try honest.game.guess(guess)
                #expect(await honest.verdicts.first { $0.guess == guess && $0.player.id == honest.id }?.verdict == .tooLow,
                        "carol is answered during the flood; her link: \(honestChanges.all)")
                try await Task.sleep(for: .milliseconds(200))
                await game.advanceMemoryClock(by: .milliseconds(200))  // the flood lasts, by the host's clock too
            }
            let gone = try #require(await flooderGone.first { $0.state == .notConnected }, "the flooder is disconnected")
            guard case .goodbye(let reason?) = gone.reason else {
                Issue.record("the flooder is told why: \(String(describing: gone.reason))")
                return
            }
            #expect(reason == GameError.messageFlood(perSecond: 20).message)
            let sent = await flood.value
            #expect(sent < 200_000, "the flood was cut off, not sent to the end")

            try honest.game.guess(42)
            #expect(await honest.verdicts.first { $0.guess == 42 }?.verdict == .correct, "the game goes on")
            let notices = game.hostLog.all.filter { $0.level == .notice && $0["peer"] == "flood" }
            #expect(notices.compactMap { $0["reason"] }.sorted() == ["cutOff", "overBudget", "unknownType"], "one line per kind, not one per message: \(notices.count)")
        }
    }

    @Test("A rename to a name with an invisible character is refused with a sentence; a lookalike rename is made unique")
    func renames() async throws {
        try await withGame(.inMemory, configuration: Self.configuration()) { game in
            let bob = try await game.join("bob")
            let eve = try await game.join("eve")
            #expect(throws: GameError.self) { try eve.game.rename(to: "bob\u{200B}") }

            // Sent around the guest's check, the host refuses it and says why.
            try eve.session.send(RenameRequest(name: "alice\u{2060}"), to: [game.host.localPeer])
            let refusal = try #require(await eve.errors.first { _ in true })
            #expect(refusal.code == .invalidName)
            #expect(refusal.message.contains("invisible or formatting character (U+2060)"), "\(refusal.message)")

            let renames = EventLog(bob.game.events, .playerRenamed)  // listening before the rename goes out
            try eve.game.rename(to: "\u{0430}lice")   // Cyrillic а: looks like the host
            let renamed = try #require(await renames.first { $0.player.id == eve.id })
            #expect(renamed.player.name == "\u{0430}lice (2)")
            #expect(game.hostLog.all.contains { $0.level == .notice && $0["reason"] == "invalidName" && $0["peer"] == "eve" })
        }
    }
}

@Suite("Names that would pass for chat lines", .timeLimit(.minutes(1)))
struct ChatMarkNameTests {
    @Test("A guest named like a chat line is turned away with a sentence, and cannot rename to one")
    func chatLikeNames() async throws {
        try await withGame(.inMemory, configuration: HostileGuestTests.configuration()) { game in
            let bob = try await game.join("bob")
            #expect(throws: GameError.self) { try bob.game.rename(to: "[host] alice: stop") }
            try bob.session.send(RenameRequest(name: "[host] alice"), to: [game.host.localPeer])
            let refusal = try #require(await bob.errors.first { _ in true })
            #expect(refusal.code == .invalidName)
            #expect(refusal.message.contains("marks chat lines"), "\(refusal.message)")

            let mallory = Guest(session: Session(localPeer: peer("[chat] bob: hi"), transport: game.transport(), configuration: .notAboutTimeouts))
            let link = EventLog(mallory.session.events, .stateChanged)
            _ = try await mallory.session.invite(game.endpoint)
            let gone = try #require(await link.first { $0.state == .notConnected })
            #expect(gone.reason == .goodbye(GameError.nameLooksLikeChat("[chat] bob: hi").message))
            #expect(!game.room.seated.contains { $0.player.name.hasPrefix("[") })
            await mallory.session.disconnect()
        }
    }
}
