import Dispatch
import Foundation
import GuessnumTerminal
import Synchronization

/// SIGTERM (and SIGINT when not at a terminal) end the program gracefully: they wake
/// ``wait()`` instead of killing the process, so goodbyes are sent. At a terminal SIGINT
/// belongs to the console, where Ctrl-C clears the line being typed.
enum Signals {
    private struct State {
        var received = false
        var nextID = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var sources: [any DispatchSourceSignal] = []
    }

    private static let state = Mutex(State())

    /// Whether a signal has arrived.
    static var received: Bool { state.withLock { $0.received } }

    /// Starts catching SIGTERM, and SIGINT too unless `console` is a terminal's. Call once,
    /// after the console is made.
    static func install(for console: any Console) {
        let numbers = console is ReadlineConsole ? [SIGTERM] : [SIGINT, SIGTERM]
        state.withLock { state in
            guard state.sources.isEmpty else { return }
            for number in numbers {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { fire() }
                source.resume()
                state.sources.append(source)
            }
        }
    }

    /// Returns when SIGINT or SIGTERM arrives (at once if one already has), or when the
    /// calling task is cancelled.
    static func wait() async {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    if state.received || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    private static func fire() {
        let waiters = state.withLock { state in
            state.received = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }
}
