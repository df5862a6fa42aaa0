import GuessnumTerminal

/// The one stream a REPL reads: the console, signals, discovery and the game all post into
/// it, and the REPL handles its ``events`` one at a time, in order.
///
/// Posting never blocks and may happen from any thread. The stream keeps the oldest events
/// when a burst exceeds its buffer (a person cannot type 4,096 lines between two reads).
public final class Inbox: Sendable {
    /// The events, for the one task that handles them.
    public let events: AsyncStream<AppEvent>
    private let continuation: AsyncStream<AppEvent>.Continuation

    /// An empty inbox.
    public init() {
        (events, continuation) = AsyncStream.makeStream(of: AppEvent.self, bufferingPolicy: .bufferingOldest(4096))
    }

    /// Adds `event` to the stream.
    public func post(_ event: AppEvent) {
        continuation.yield(event)
    }

    /// Where a console delivers what is typed: lines become ``AppEvent/typed(_:)`` and the end
    /// of input ``AppEvent/inputEnded``.
    public var consoleInput: ConsoleInputHandler {
        let continuation = continuation
        return { input in
            switch input {
            case .line(let line): continuation.yield(.typed(line))
            case .ended: continuation.yield(.inputEnded)
            case .interrupted(let cleared): continuation.yield(.interrupted(clearedText: cleared))
            }
        }
    }

    /// The next line typed, for a question asked before the REPL's loop runs; other events
    /// meanwhile are passed over. Nil when input ends, is interrupted or a signal comes first.
    public func nextLine() async -> String? {
        for await event in events {
            switch event {
            case .typed(let line): return line
            case .interrupted, .inputEnded, .signal: return nil
            case .gamesChanged, .hostLeft, .linkLost, .rejoin, .timer: continue
            }
        }
        return nil
    }

    /// Posts ``AppEvent/timer`` after `delay`, unless the returned task is cancelled first. The
    /// caller owns the timer: it keeps the handle and cancels it once the timer is no longer
    /// wanted (``GuestREPL`` keeps its timers until its list of games closes).
    @discardableResult
    public func wake(after delay: Duration) -> Task<Void, Never> {
        let continuation = continuation
        return Task {
            try? await Task.sleep(for: delay)
            if !Task.isCancelled { continuation.yield(.timer) }
        }
    }

    /// Ends the stream: the REPL's loop finishes once it has handled what was posted before.
    public func finish() {
        continuation.finish()
    }
}
