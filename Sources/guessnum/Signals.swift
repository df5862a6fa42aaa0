import Dispatch
import Foundation
import Synchronization

/// SIGINT and SIGTERM end the program gracefully: they wake ``wait()`` instead of killing
/// the process, so goodbyes are sent.
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

    /// Starts catching SIGINT and SIGTERM. Call once, early.
    static func install() {
        state.withLock { state in
            guard state.sources.isEmpty else { return }
            for number in [SIGINT, SIGTERM] {
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
