import GuessnumGame
import Multipeer
import Synchronization

/// Keeps the announced facts of a game current without flooding the LAN: one update task at a
/// time, each publishing the facts as they are when it runs, at most once a second (so a burst
/// of joins costs one mDNS announcement, and a stale count can never land last).
final class AdvertisementRefresher: Sendable {
    private let advertiser: Advertiser
    private let master: GameMaster
    private let state = Mutex<(pending: Bool, running: Bool)>((false, false))

    init(advertiser: Advertiser, master: GameMaster) {
        self.advertiser = advertiser
        self.master = master
    }

    /// Asks for the announcement to be brought up to date.
    func refresh() {
        let start = state.withLock { state in
            state.pending = true
            defer { state.running = true }
            return !state.running
        }
        guard start else { return }
        Task { [self] in
            while true {
                state.withLock { $0.pending = false }
                try? await advertiser.update(master.advertisement.discoveryInfo)
                try? await Task.sleep(for: .seconds(1))
                let again = state.withLock { state in
                    if !state.pending { state.running = false }
                    return state.pending
                }
                if !again { return }
            }
        }
    }
}
