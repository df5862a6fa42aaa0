import Dispatch
import Foundation
import Synchronization

/// SIGTERM (and SIGINT when not at a terminal) end the program gracefully: instead of killing
/// the process they post ``AppEvent/signal``, so that goodbyes are sent. At a terminal SIGINT
/// belongs to the console, where Ctrl-C clears the line being typed.
public enum Signals {
    private static let sources = Mutex<[any DispatchSourceSignal]>([])

    /// Starts catching SIGTERM, and SIGINT too unless `interactive` (a person at a terminal,
    /// whose console handles Ctrl-C). Each signal posts ``AppEvent/signal`` to `inbox`. Call
    /// once; later calls do nothing.
    public static func install(interactive: Bool, inbox: Inbox) {
        let numbers = interactive ? [SIGTERM] : [SIGINT, SIGTERM]
        sources.withLock { sources in
            guard sources.isEmpty else { return }
            for number in numbers {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { inbox.post(.signal) }
                source.resume()
                sources.append(source)
            }
        }
    }
}
