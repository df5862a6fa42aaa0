import Foundation
import Synchronization

/// What arrived of one incoming stream and was not read yet, and its end once known. The
/// session appends under its own lock; the reader takes from another task. Taking grants the
/// writer credit in batches of a quarter window, through `grant`.
///
/// The window grows while the reader keeps up, as yamux and HTTP/2 stacks tune theirs: once the
/// reader has read a whole window in a row with never more than a quarter of it waiting, the
/// window (a credit round trip per window), not the reader, holds the writer back, so the next
/// grant adds a whole window more (doubling it), up to `maximumWindow`. A reader that falls
/// behind grows nothing, and one that never reads holds the first window at most.
final class StreamBuffer: Sendable {
    let name: String
    private let maximumWindow: Int
    private let grant: @Sendable (StreamBuffer, Int) -> Void
    private let release: @Sendable (StreamBuffer, _ reset: Bool) -> Void

    private struct State {
        var chunks: [Data] = []
        var head = 0
        var end: MultipeerError?? = nil  // .some(nil): finished; .some(error): failed
        var waiter: CheckedContinuation<Void, Never>?
        var ungranted = 0
        var released = false
        /// The credit the writer may have outstanding: bytes sent and not yet granted back.
        var window: Int
        /// Bytes arrived and not yet taken by the reader.
        var unread = 0
        /// Bytes the reader took in a row with no more than a quarter window left waiting.
        var keptUp = 0
    }

    private let state: Mutex<State>

    /// - Parameters:
    ///   - grant: gives the writer credit for bytes read.
    ///   - release: the stream no longer counts as open (read to its end, or cancelled: `reset`).
    ///   - window: the credit the writer starts with; `maximumWindow`: the most it grows to.
    init(
        name: String, window: Int, maximumWindow: Int, grant: @escaping @Sendable (StreamBuffer, Int) -> Void,
        release: @escaping @Sendable (StreamBuffer, _ reset: Bool) -> Void
    ) {
        self.name = name
        state = Mutex(State(window: max(4, window)))
        self.maximumWindow = max(4, window, maximumWindow)
        self.grant = grant
        self.release = release
    }

    /// Adds `data` for the reader. A reader waiting for it is woken now when `wake`; otherwise
    /// the caller wakes it later (``wake()``), and true says that it waits.
    @discardableResult
    func append(_ data: Data, wake: Bool = true) -> Bool {
        var waits = false
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.end == nil, !state.released else { return nil }
            state.chunks.append(data)
            state.unread += data.count
            guard wake else {
                waits = state.waiter != nil
                return nil
            }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
        return waits
    }

    /// Wakes the reader if it waits (for bytes ``append(_:wake:)`` left it asleep for).
    func wake() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// The writer finished: the sequence ends once everything is read.
    func finish() { settle(nil) }

    /// The stream ended with `error`, after what was already received.
    func fail(_ error: MultipeerError) { settle(error) }

    private func settle(_ error: MultipeerError?) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.end == nil else { return nil }
            state.end = .some(error)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    func cancel() {
        let (waiter, first) = state.withLock { state -> (CheckedContinuation<Void, Never>?, Bool) in
            let first = !state.released
            state.released = true
            state.chunks = []
            state.head = 0
            state.unread = 0
            if state.end == nil { state.end = .some(.streamReset(name, by: "this side", reason: "cancelled by the reader")) }
            defer { state.waiter = nil }
            return (state.waiter, first)
        }
        waiter?.resume()
        if first { release(self, true) }
    }

    func next() async throws(MultipeerError) -> Data? {
        while true {
            enum Step { case chunk(Data, grant: Int), finished(releasing: Bool), failed(MultipeerError, releasing: Bool), wait }
            let step: Step = state.withLock { state in
                if state.head < state.chunks.count {
                    let chunk = state.chunks[state.head]
                    state.head += 1
                    if state.head > 64, state.head * 2 > state.chunks.count {
                        state.chunks.removeFirst(state.head)
                        state.head = 0
                    }
                    state.ungranted += chunk.count
                    state.unread -= chunk.count
                    let batch = state.window / 4
                    state.keptUp = state.unread > batch ? 0 : state.keptUp + chunk.count
                    var grant = 0
                    if state.ungranted >= batch, state.end == nil {
                        grant = state.ungranted
                        state.ungranted = 0
                        if state.keptUp >= state.window, state.window < maximumWindow {
                            let growth = min(state.window, maximumWindow - state.window)
                            state.window += growth
                            state.keptUp = 0
                            grant += growth
                        }
                    }
                    return .chunk(chunk, grant: grant)
                }
                if let end = state.end {
                    let releasing = !state.released
                    state.released = true
                    if let error = end { return .failed(error, releasing: releasing) }
                    return .finished(releasing: releasing)
                }
                return .wait
            }
            switch step {
            case .chunk(let chunk, let credit):
                if credit > 0 { grant(self, credit) }
                return chunk
            case .finished(let releasing):
                if releasing { release(self, false) }
                return nil
            case .failed(let error, let releasing):
                if releasing { release(self, false) }
                throw error
            case .wait:
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let ready = state.withLock { state -> Bool in
                        if state.head < state.chunks.count || state.end != nil { return true }
                        state.waiter = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
            }
        }
    }
}
