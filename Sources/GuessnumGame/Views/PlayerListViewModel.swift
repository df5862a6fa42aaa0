import EventBus
import Foundation
import Multipeer
import Synchronization

/// Keeps a ``PlayerList`` up to date from a session's ``EventName/stateChanged`` events and a
/// game's events (a ``GameMaster``'s or a ``GuestGame``'s), and posts each changed row as
/// ``EventName/playerListChanged``.
///
/// ```swift
/// let list = PlayerListViewModel(sessionEvents: session.events, gameEvents: master.events)
/// let redraw = list.events.observe(.playerListChanged) { change in … }
/// ```
public final class PlayerListViewModel: Sendable {
    /// Where changes are posted.
    public let events: EventBus

    private struct State {
        var list: PlayerList
        var observations: [EventObservation] = []
    }

    private let state: Mutex<State>

    /// Starts following `sessionEvents` and `gameEvents`, keeping up to `goneLimit` players
    /// who left.
    public init(sessionEvents: EventBus, gameEvents: EventBus, goneLimit: Int = 20, events: EventBus = EventBus()) {
        self.events = events
        state = Mutex(State(list: PlayerList(goneLimit: goneLimit)))
        let observations = [
            sessionEvents.observe(.stateChanged) { [weak self] event in self?.update { $0.apply(event) } },
            gameEvents.observe(.playerJoined) { [weak self] event in self?.update { $0.apply(event) } },
            gameEvents.observe(.playerLeft) { [weak self] event in self?.update { $0.apply(event) } },
            gameEvents.observe(.playerRenamed) { [weak self] event in self?.update { $0.apply(event) } },
            gameEvents.observe(.verdict) { [weak self] event in self?.update { $0.apply(event) } },
            gameEvents.observe(.roundStarted) { [weak self] event in self?.update { $0.apply(event) } },
            gameEvents.observe(.roundWon) { [weak self] event in self?.update { $0.apply(event) } },
            gameEvents.observe(.scoreboardChanged) { [weak self] event in self?.update { $0.apply(event) } },
            gameEvents.observe(.welcomed) { [weak self] event in self?.update { $0.apply(event) } },
        ]
        state.withLock { $0.observations = observations }
    }

    /// Stops following the events.
    public func stop() {
        let observations = state.withLock { state in
            defer { state.observations = [] }
            return state.observations
        }
        for observation in observations { observation.cancel() }
    }

    deinit {
        stop()
    }

    /// Every row, in the order players first appeared.
    public var rows: [PlayerRow] { state.withLock { $0.list.all } }

    /// The row of player `id`.
    public func row(for id: UUID) -> PlayerRow? { state.withLock { $0.list.row(for: id) } }

    /// How many players are connected.
    public var connectedCount: Int { state.withLock { $0.list.connectedCount } }

    private func update(_ body: (inout PlayerList) -> [PlayerListChange]) {
        let changes = state.withLock { body(&$0.list) }
        for change in changes { events.post(.playerListChanged, change) }
    }
}
