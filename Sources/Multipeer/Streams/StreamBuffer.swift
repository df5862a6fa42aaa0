import Foundation
import Synchronization

/// What arrived of one incoming stream and was not read yet, and its end once known. The
/// session appends under its own lock; the reader takes from another task. Taking grants the
/// writer credit in batches of a quarter window, through `grant`.
final class StreamBuffer: Sendable {
    let name: String
    private let grantBatch: Int
    private let grant: @Sendable (StreamBuffer, Int) -> Void
    private let release: @Sendable (StreamBuffer, _ reset: Bool) -> Void

    private struct State {
        var chunks: [Data] = []
        var head = 0
        var end: MultipeerError?? = nil  // .some(nil): finished; .some(error): failed
        var waiter: CheckedContinuation<Void, Never>?
        var ungranted = 0
        var released = false
    }

    private let state = Mutex(State())

    /// - Parameters:
    ///   - grant: gives the writer credit for bytes read.
    ///   - release: the stream no longer counts as open (read to its end, or cancelled: `reset`).
    init(
        name: String, grantBatch: Int, grant: @escaping @Sendable (StreamBuffer, Int) -> Void,
        release: @escaping @Sendable (StreamBuffer, _ reset: Bool) -> Void
    ) {
        self.name = name
        self.grantBatch = max(1, grantBatch)
        self.grant = grant
        self.release = release
    }

    func append(_ data: Data) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.end == nil, !state.released else { return nil }
            state.chunks.append(data)
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
                    var grant = 0
                    if state.ungranted >= grantBatch, state.end == nil {
                        grant = state.ungranted
                        state.ungranted = 0
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
