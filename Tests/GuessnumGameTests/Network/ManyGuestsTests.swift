import EventBus
import Foundation
import GuessnumGame
import Multipeer
import MultipeerTestSupport
import Testing

@Suite("Many guests", .timeLimit(.minutes(2)))
struct ManyGuestsTests {
    @Test("Forty guests each read everyone's verdict, gathered into a few broadcasts rather than one per guess")
    func coalesced() async throws {
        var configuration = GuessHosting(secretSource: .fixed(99))
        configuration.room.broadcastTick = .milliseconds(300)
        configuration.room.pauseBetweenRounds = .seconds(60)
        try await withGame(.inMemory, configuration: configuration) { game in
            let guests = try await withThrowingTaskGroup(of: Guest.self) { group in
                for index in 0..<40 { group.addTask { try await game.join("player\(index)") } }
                return try await group.reduce(into: [Guest]()) { $0.append($1) }
            }
            #expect(game.room.playerCount == 40)
            let watcher = guests[0]
            let watcherData = EventLog(watcher.session.events, .dataReceived)

            for (index, guest) in guests.enumerated() { try guest.game.guess(Int64(index + 1)) }
            for guest in guests {
                let seen = await guest.verdicts.count(atLeast: 40) { _ in true }
                #expect(seen == 40, "\(guest.name) read \(seen) of 40 verdicts")
            }
            #expect(Set(watcher.verdicts.all.map(\.guess)) == Set(1...40))
            let batches = watcherData.all.filter { $0.messageType == HistoryBatch.messageType }.count
            #expect(batches >= 1 && batches < 40, "\(batches) broadcasts carried 39 verdicts of others")
            #expect(game.room.currentRound?.countedGuesses == 40)
        }
    }
}
