import Synchronization

/// A notification-style event bus: posts fan out to every observer of their ``EventName``.
///
/// The bus plays the part NotificationCenter played in the apps guessnum grew from: one
/// component posts (the session posts `stateChanged` and `dataReceived`), and any number of
/// others observe without knowing about each other (the game master, the player list).
///
/// - Posting is synchronous and may happen on any thread: ``post(_:_:)`` returns after every
///   handler registered with ``observe(_:handler:)`` has run, on the posting thread, and after
///   every ``EventStream`` has been handed the event.
/// - No lock is held while handlers run, so a handler may post, observe or cancel freely.
/// - Streams buffer a bounded number of events; see ``stream(_:bufferLimit:)``.
/// - The cost of a post grows with the number of observers of that name only.
public final class EventBus: Sendable {
    private struct Observer: Sendable {
        let id: UInt64
        /// Hands the payload at the pointer to the observer. The pointer is always to a value of
        /// the payload type of the channel the observer is filed under (``ChannelKey`` names that
        /// type): the payload is neither boxed in an existential nor cast back, which cost more
        /// than the rest of a post on the guess's path.
        let deliver: @Sendable (UnsafeRawPointer) -> Void
    }

    private struct Registry {
        var nextID: UInt64 = 0
        var observers: [ChannelKey: [Observer]] = [:]
    }

    private let registry = Mutex(Registry())

    /// Creates an empty bus. Buses are ordinary values to pass around; there is no default one.
    public init() {}

    /// Delivers `payload` to every current observer of `name`, in the order they subscribed.
    public func post<Payload>(_ name: EventName<Payload>, _ payload: Payload) {
        let key = ChannelKey(name)
        let observers = registry.withLock { $0.observers[key] }
        guard let observers else { return }
        withUnsafePointer(to: payload) { payload in
            for observer in observers { observer.deliver(payload) }
        }
    }

    /// Calls `handler` synchronously, on the posting thread, for every later post of `name`.
    ///
    /// The observation lasts until ``EventObservation/cancel()`` is called or the returned
    /// token is released. A post already under way when it is cancelled may still reach it.
    public func observe<Payload>(
        _ name: EventName<Payload>,
        handler: @escaping @Sendable (Payload) -> Void
    ) -> EventObservation {
        let id = add(ChannelKey(name)) { payload in handler(payload.assumingMemoryBound(to: Payload.self).pointee) }
        return EventObservation { [weak self] in self?.remove(id, from: ChannelKey(name)) }
    }

    /// Returns an asynchronous sequence of later posts of `name`, buffering at most
    /// `bufferLimit` events that have not been consumed yet.
    ///
    /// When the buffer is full, newer events are dropped (never older ones, so what a consumer
    /// reads is always a gapless prefix up to the first drop) and counted in
    /// ``EventStream/droppedCount``. The subscription ends when the consumer stops iterating,
    /// its task is cancelled, the stream is released, or ``EventStream/cancel()`` is called.
    public func stream<Payload>(_ name: EventName<Payload>, bufferLimit: Int = 1024) -> EventStream<Payload> {
        precondition(bufferLimit > 0, "an event stream needs room for at least one event")
        let (stream, continuation) = AsyncStream<Payload>.makeStream(bufferingPolicy: .bufferingOldest(bufferLimit))
        let drops = DropCounter()
        let key = ChannelKey(name)
        let id = add(key) { payload in
            if case .dropped = continuation.yield(payload.assumingMemoryBound(to: Payload.self).pointee) { drops.increment() }
        }
        continuation.onTermination = { [weak self] _ in self?.remove(id, from: key) }
        return EventStream(stream: stream, continuation: continuation, drops: drops)
    }

    /// The number of observers and streams currently subscribed to `name`.
    public func observerCount<Payload>(of name: EventName<Payload>) -> Int {
        registry.withLock { $0.observers[ChannelKey(name)]?.count ?? 0 }
    }

    private func add(_ key: ChannelKey, deliver: @escaping @Sendable (UnsafeRawPointer) -> Void) -> UInt64 {
        registry.withLock { registry in
            let id = registry.nextID
            registry.nextID += 1
            registry.observers[key, default: []].append(Observer(id: id, deliver: deliver))
            return id
        }
    }

    private func remove(_ id: UInt64, from key: ChannelKey) {
        registry.withLock { registry in
            registry.observers[key]?.removeAll { $0.id == id }
            if registry.observers[key]?.isEmpty == true { registry.observers[key] = nil }
        }
    }
}
