import Rooms
import Testing

@Suite("The room's configuration", .timeLimit(.minutes(1)))
struct RoomConfigurationTests {
    @Test("The defaults make sense")
    func defaults() {
        #expect(RoomConfiguration().problem == nil)
        #expect(RoomConfiguration().seatHoldSeconds == 60)
    }

    @Test("After a tick that sent more frames than the budget allows in one, the next waits longer: 20,000 frames a second", arguments: [
        (0, 50), (1_000, 50), (2_000, 100), (20_000, 1_000),
    ])
    func intervalAfterFrames(frames: Int, milliseconds: Int) {
        #expect(RoomConfiguration().broadcastInterval(frames: frames) == .milliseconds(milliseconds))
    }

    @Test("Each value that makes no sense is named", arguments: [
        "broadcast tick", "pause between rounds", "chat lines per second", "messages per second", "time over budget",
        "broadcast budgets", "grace period", "at least one player", "from each address", "cannot be negative",
    ])
    func problems(named: String) throws {
        var configuration = RoomConfiguration()
        switch named {
        case "broadcast tick": configuration.broadcastTick = .zero
        case "pause between rounds": configuration.pauseBetweenRounds = .seconds(-1)
        case "chat lines per second": configuration.chatBurst = 0.5
        case "messages per second": configuration.messagesPerSecond = 0
        case "time over budget": configuration.overBudgetPeriodBeforeDisconnect = .seconds(-1)
        case "broadcast budgets": configuration.broadcastFramesPerSecond = 0
        case "grace period": configuration.awayGracePeriod = .seconds(-1)
        case "at least one player": configuration.maximumPlayers = 0
        case "from each address": configuration.maximumPlayersPerAddress = 0
        default: configuration.replayLimit = -1
        }
        let problem = try #require(configuration.problem)
        #expect(problem.contains(named))
    }

    @Test("No seat is held when the grace period is zero")
    func noSeatHeld() {
        var configuration = RoomConfiguration()
        configuration.awayGracePeriod = .zero
        #expect(configuration.seatHoldSeconds == nil)
    }
}
