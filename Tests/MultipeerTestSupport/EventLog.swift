import EventBus
import Foundation
import Multipeer

/// Records every post of one event name, and waits (with a deadline, never forever) for one
/// that matches.
public final class EventLog<Payload: Sendable>: Sendable {
    private let entries = Locked<[Payload]>([])
    private let observation: EventObservation

    public init(_ bus: EventBus, _ name: EventName<Payload>) {
        let entries = self.entries
        observation = bus.observe(name) { payload in entries.withLock { $0.append(payload) } }
    }

    public var all: [Payload] { entries.value }

    /// The first recorded payload matching `predicate`, waiting up to `timeout` for it.
    public func first(within timeout: Duration = .seconds(30), where predicate: (Payload) -> Bool) async -> Payload? {
        await firstMatch(in: { all }, within: timeout, where: predicate)
    }

    /// Waits until at least `count` payloads match `predicate`; returns how many did.
    public func count(atLeast count: Int, within timeout: Duration = .seconds(30), where predicate: (Payload) -> Bool) async -> Int {
        await matchCount(in: { all }, atLeast: count, within: timeout, where: predicate)
    }
}

extension EventLog where Payload == PeerStateChange {
    /// The states `peer` went through, in order.
    public func states(of peer: PeerID) -> [PeerState] {
        all.filter { $0.peer == peer }.map(\.state)
    }

    public func waitFor(_ peer: PeerID, _ state: PeerState, within timeout: Duration = .seconds(30)) async -> PeerStateChange? {
        await first(within: timeout) { $0.peer == peer && $0.state == state }
    }
}

/// Polls `condition` until it holds or `timeout` passes; returns whether it held.
public func eventually(within timeout: Duration = .seconds(30), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}

/// A peer with a fresh identity.
public func peer(_ name: String) -> PeerID {
    try! PeerID(displayName: name)
}

/// A typed message for tests, wire-compatible with the `guessnum` executable's chat line.
public struct Chat: SessionMessage, Equatable {
    public static let messageType = "chat"
    public var text: String

    public init(text: String) {
        self.text = text
    }
}

/// The first element of `elements()` matching `predicate`, polling up to `timeout` for one.
public func firstMatch<Element>(
    in elements: () -> [Element], within timeout: Duration = .seconds(30), where predicate: (Element) -> Bool
) async -> Element? {
    var match: Element?
    _ = await eventually(within: timeout) {
        match = elements().first(where: predicate)
        return match != nil
    }
    return match
}

/// How many elements of `elements()` match `predicate`, polling up to `timeout` for `count`.
public func matchCount<Element>(
    in elements: () -> [Element], atLeast count: Int, within timeout: Duration = .seconds(30), where predicate: (Element) -> Bool
) async -> Int {
    var matching = 0
    _ = await eventually(within: timeout) {
        matching = elements().filter(predicate).count
        return matching >= count
    }
    return matching
}
