import Dispatch
import Foundation

/// Ctrl-C (SIGINT) and SIGTERM as a call, not the end of the program, while it lives: what
/// `guessnum send` and `guessnum receive` do to stop a transfer cleanly.
public final class InterruptSource {
    private let sources: [any DispatchSourceSignal]

    /// Calls `handler` on each SIGINT and SIGTERM from now until ``cancel()``.
    public init(_ handler: @escaping @Sendable () -> Void) {
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
    }

    /// Stops calling the handler (the signals stay ignored).
    public func cancel() {
        for source in sources { source.cancel() }
    }
}
