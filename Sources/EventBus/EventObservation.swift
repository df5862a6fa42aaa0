import Synchronization

/// A token for a handler registered with ``EventBus/observe(_:handler:)``.
///
/// Keep it for as long as the handler should run: the observation ends when ``cancel()`` is
/// called or when the token is released, whichever comes first.
public final class EventObservation: Sendable {
    private let cancellation: Mutex<(@Sendable () -> Void)?>

    init(cancel: @escaping @Sendable () -> Void) {
        cancellation = Mutex(cancel)
    }

    /// Ends the observation. Calling it again does nothing.
    public func cancel() {
        let cancel = cancellation.withLock { cancellation in
            defer { cancellation = nil }
            return cancellation
        }
        cancel?()
    }

    /// Whether ``cancel()`` has been called.
    public var isCancelled: Bool {
        cancellation.withLock { $0 == nil }
    }

    deinit {
        cancel()
    }
}
