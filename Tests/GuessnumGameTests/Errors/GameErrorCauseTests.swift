import Multipeer
import GuessnumGame
import Testing

@Suite("Game errors keep their cause", .timeLimit(.minutes(1)))
struct GameErrorCauseTests {
    @Test("A bad name keeps the session's error as its cause, under the game's code and with the session's sentence; equality ignores the cause")
    func invalidNameKeepsCause() {
        let error = #expect(throws: GameError.self) { try RoomProtocol.checkName("") }
        #expect(error?.code == .invalidName)
        let cause = error?.underlying as? MultipeerError
        #expect(cause?.code == .invalidDisplayName)
        #expect(error?.message == cause?.message)
        #expect(error == GameError(.invalidName, cause?.message ?? ""), "the cause does not count in equality")
        #expect(error?.debugDescription.contains("[invalidName] (caused by: ") == true, "\(error?.debugDescription ?? "")")
    }

    @Test("A refused send keeps the session's error as its cause")
    func sendFailedKeepsCause() {
        let error = GameError.sendFailed(.sessionClosed)
        #expect(error.code == .sendFailed && error.message == MultipeerError.sessionClosed.message)
        #expect(error.underlying as? MultipeerError == .sessionClosed)
        #expect(GameError.received(code: "gameFull", message: "full").underlying == nil, "an error from the host has no cause here")
    }
}
