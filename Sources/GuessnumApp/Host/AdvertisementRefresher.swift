import GuessnumGame
import Multipeer
import Synchronization

/// Keeps the announced facts of a game current without flooding the LAN: one update task at a
/// time, each publishing the facts as they are when it runs, at most once a second (so a burst
/// of joins costs one mDNS announcement, and a stale count can never land last).
final class AdvertisementRefresher: Sendable {
    private let advertiser: Advertiser
    private let facts: @Sendable () -> DiscoveryInfo
    private let state = Mutex(Refreshing())

    /// The update task, when one runs, and what it is asked.
    private struct Refreshing {
        var pending = false
        var task: Task<Void, Never>?
        var isStopped = false
    }

    /// Refreshes `advertiser` with what `facts` says when asked.
    init(advertiser: Advertiser, facts: @escaping @Sendable () -> DiscoveryInfo) {
        self.advertiser = advertiser
        self.facts = facts
    }

    /// Asks for the announcement to be brought up to date (nothing once stopped).
    func refresh() {
        state.withLock { state in
            guard !state.isStopped else { return }
            state.pending = true
            if state.task == nil { state.task = Task { [self] in await publish() } }
        }
    }

    /// Stops refreshing: the update task is cancelled and awaited, and later refreshes do
    /// nothing, so that no update lands after the advertiser has stopped.
    func stop() async {
        let task = state.withLock { state in
            state.isStopped = true
            return state.task
        }
        task?.cancel()
        await task?.value
    }

    private func publish() async {
        while true {
            state.withLock { $0.pending = false }
            try? await advertiser.update(facts())
            try? await Task.sleep(for: .seconds(1))
            let again = state.withLock { state in
                let again = state.pending && !state.isStopped
                if !again { state.task = nil }
                return again
            }
            if !again { return }
        }
    }
}
