@testable import GuessnumApp
import GuessnumTerminal
import Testing

@Suite("The one inbox of events", .timeLimit(.minutes(1)))
struct InboxTests {
    @Test("Console input, posts and timers arrive in one stream, in order")
    func oneStream() async {
        let inbox = Inbox()
        inbox.consoleInput(.line("50"))
        inbox.post(.gamesChanged)
        inbox.consoleInput(.line(""))
        inbox.consoleInput(.ended)
        inbox.wake(after: .milliseconds(20))
        var events: [AppEvent] = []
        for await event in inbox.events {
            events.append(event)
            if event == .timer { break }
        }
        #expect(events == [.typed("50"), .gamesChanged, .typed(""), .inputEnded, .timer])
    }

    @Test("A cancelled timer never fires")
    func cancelledTimer() async throws {
        let inbox = Inbox()
        let start = ContinuousClock.now
        inbox.wake(after: .milliseconds(10)).cancel()
        inbox.wake(after: .milliseconds(60))
        var iterator = inbox.events.makeAsyncIterator()
        let first = await iterator.next()
        // A sleep never ends early: the first timer to arrive is the 60 ms one only if the
        // cancelled 10 ms one never fired.
        #expect(first == .timer && ContinuousClock.now - start >= .milliseconds(60))
    }
}
