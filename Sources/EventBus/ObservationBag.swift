import Synchronization

/// Observations kept together and ended together, for an object that follows several events
/// until it is stopped.
///
/// ```swift
/// let observations = ObservationBag()
/// observations.add(bus.observe(.chat) { print($0) })
/// observations.add(bus.observe(.verdict) { print($0) })
/// observations.cancelAll()
/// ```
///
/// Releasing the bag ends its observations too, as releasing each token would.
public final class ObservationBag: Sendable {
    private let observations = Mutex<[EventObservation]>([])

    /// An empty bag.
    public init() {}

    /// Keeps `observation` until ``cancelAll()``.
    public func add(_ observation: EventObservation) {
        observations.withLock { $0.append(observation) }
    }

    /// Keeps every one of `observations` until ``cancelAll()``.
    public func add(contentsOf observations: [EventObservation]) {
        self.observations.withLock { $0.append(contentsOf: observations) }
    }

    /// How many observations the bag holds.
    public var count: Int { observations.withLock { $0.count } }

    /// Ends every observation held and empties the bag; calling it again does nothing.
    /// The observations are cancelled outside the bag's lock, so a handler may use the bag.
    public func cancelAll() {
        let held = observations.withLock { observations in
            defer { observations = [] }
            return observations
        }
        for observation in held { observation.cancel() }
    }
}
