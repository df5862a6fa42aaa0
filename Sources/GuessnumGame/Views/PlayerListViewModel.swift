import EventBus
import Foundation
import Multipeer
import Synchronization

/// Keeps a ``PlayerList`` up to date from a session's ``EventName/stateChanged`` events and a
/// game's events (a host's room posts them through its `RoomTicks`, a guest's game as it reads
/// them), and posts each changed row as ``EventName/playerListChanged``.
///
/// ```swift
/// let list = PlayerListViewModel(sessionEvents: session.events, gameEvents: roomEvents)
/// let redraw = list.events.observe(.playerListChanged) { change in … }
/// ```
public final class PlayerListViewModel: Sendable {
    /// Where changes are posted.
    public let events: EventBus

    private let state: Mutex<PlayerList>
    private let observations = ObservationBag()

    /// Starts following `sessionEvents` and `gameEvents`, keeping up to `goneLimit` players
    /// who left.
    public init(sessionEvents: EventBus, gameEvents: EventBus, goneLimit: Int = 20, events: EventBus = EventBus()) {
        self.events = events
        state = Mutex(PlayerList(goneLimit: goneLimit))
        observations.add(contentsOf: [
            sessionEvents.observe(.stateChanged) { [weak self] event in self?.update { $0.apply(event) } },
            gameEvents.observe(.playerJoined) { [weak self] event in self?.update { $0.apply(event) } },
            gameEvents.observe(.playerLeft) { [weak self] event in self?.update { $0.apply(event) } },
            gameEvents.observe(.playerAway) { [weak self] event in self?.update { $0.apply(event) } },
            gameEvents.observe(.playerBack) { [weak self] event in self?.update { $0.apply(event) } },
            gameEvents.observe(.playerRenamed) { [weak self] event in self?.update { $0.apply(event) } },
            gameEvents.observe(.verdict) { [weak self] event in self?.update { $0.apply(event) } },
            gameEvents.observe(.roundStarted) { [weak self] event in self?.update { $0.apply(event) } },
            gameEvents.observe(.roundWon) { [weak self] event in self?.update { $0.apply(event) } },
            gameEvents.observe(.scoreboardChanged) { [weak self] event in self?.update { $0.apply(event) } },
            gameEvents.observe(.welcomed) { [weak self] event in self?.update { $0.apply(event) } },
        ])
    }

    /// Stops following the events.
    public func stop() {
        observations.cancelAll()
    }

    deinit {
        stop()
    }

    /// Every row, in the order players first appeared.
    public var rows: [PlayerRow] { state.withLock { $0.all } }

    /// The row of player `id`.
    public func row(for id: UUID) -> PlayerRow? { state.withLock { $0.row(for: id) } }

    /// How many players are connected.
    public var connectedCount: Int { state.withLock { $0.connectedCount } }

    private func update(_ body: (inout PlayerList) -> [PlayerListChange]) {
        let changes = state.withLock { body(&$0) }
        for change in changes { events.post(.playerListChanged, change) }
    }
}
