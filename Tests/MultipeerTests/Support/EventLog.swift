import EventBus
import Foundation
import Multipeer
import Synchronization

/// Records every post of one event name, and waits (with a deadline, never forever) for one
/// that matches.
final class EventLog<Payload: Sendable>: Sendable {
    private final class Entries: Sendable {
        let list = Mutex<[Payload]>([])
    }

    private let entries = Entries()
    private let observation: EventObservation

    init(_ bus: EventBus, _ name: EventName<Payload>) {
        let entries = self.entries
        observation = bus.observe(name) { payload in entries.list.withLock { $0.append(payload) } }
    }

    var all: [Payload] { entries.list.withLock { $0 } }

    /// The first recorded payload matching `predicate`, waiting up to `timeout` for it.
    func first(within timeout: Duration = .seconds(5), where predicate: (Payload) -> Bool) async -> Payload? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let match = all.first(where: predicate) { return match }
            if ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Waits until at least `count` payloads match `predicate`; returns how many did.
    func count(atLeast count: Int, within timeout: Duration = .seconds(5), where predicate: (Payload) -> Bool) async -> Int {
        let deadline = ContinuousClock.now + timeout
        while true {
            let matching = all.filter(predicate).count
            if matching >= count || ContinuousClock.now >= deadline { return matching }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}

extension EventLog where Payload == PeerStateChange {
    /// The states `peer` went through, in order.
    func states(of peer: PeerID) -> [PeerState] {
        all.filter { $0.peer == peer }.map(\.state)
    }

    func waitFor(_ peer: PeerID, _ state: PeerState, within timeout: Duration = .seconds(5)) async -> PeerStateChange? {
        await first(within: timeout) { $0.peer == peer && $0.state == state }
    }
}

/// Polls `condition` until it holds or `timeout` passes; returns whether it held.
func eventually(within timeout: Duration = .seconds(5), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}

func peer(_ name: String) -> PeerID {
    try! PeerID(displayName: name)
}

struct Chat: SessionMessage, Equatable {
    static let messageType = "chat"
    var text: String
}
