import CReadline
import Foundation
import Synchronization

/// The console's side of the readline thread: what other threads call (``send(_:)``,
/// ``close(timeout:)``) and what they share with the thread, under a lock. The thread itself is a
/// ``ReadlineLoop``, which owns readline and the terminal from ``start()`` until the close.
final class ReadlineSession: Sendable {
    enum Command {
        case print(String)
        case printDiagnostic(String)
        case setPrompt(String)
        case hideNextLine(prompt: String)
        case discardTypedLine
        case resumeInput
        case close(DispatchSemaphore)
    }

    /// What other threads share with the readline thread.
    struct Shared {
        /// Waiting commands; prints beyond its bounds are skipped and counted, so a terminal
        /// that falls behind never makes the program wait or hold unbounded memory.
        var commands = OutputBacklog<Command>()
        /// Set when the thread has finished: nothing it is sent will be done.
        var isFinished = false
        var isClosing = false
        var thread: pthread_t?
    }

    let shared = Mutex(Shared())
    let wakePipe: (read: Int32, write: Int32)
    let signalPipe: (read: Int32, write: Int32)
    /// The prompt the loop starts with.
    let initialPrompt: String
    let input: ConsoleInputHandler
    let history: HistoryStore?
    let completions: [String]
    let keepsInHistory: @Sendable (String) -> Bool

    init(prompt: String, history: HistoryStore?, completions: [String],
         keepsInHistory: @escaping @Sendable (String) -> Bool, input: @escaping ConsoleInputHandler) {
        self.keepsInHistory = keepsInHistory
        initialPrompt = prompt
        self.history = history
        self.completions = completions
        self.input = input
        wakePipe = Self.makePipe()
        signalPipe = Self.makePipe()
    }

    deinit {
        for fd in [wakePipe.read, wakePipe.write, signalPipe.read, signalPipe.write] { closeDescriptor(fd) }
    }

    private static func makePipe() -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { fatalError("pipe() failed: \(String(cString: strerror(errno)))") }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        return (fds[0], fds[1])
    }

    // MARK: - Called from any thread

    func start() {
        let claimed = activeSession.withLock { active -> Bool in
            guard active == nil else { return false }
            active = self
            return true
        }
        precondition(claimed, "Only one ReadlineConsole can be open at a time: close the other one first.")
        let thread = Thread { [self] in ReadlineLoop(session: self).run() }
        thread.name = "readline"
        thread.start()
    }

    /// Queues `command` and wakes the thread; false if the thread has finished (nothing more
    /// will be done). Messages queued while it closes are still printed, in order.
    func send(_ command: Command) -> Bool {
        let accepted = shared.withLock { shared -> Bool in
            guard !shared.isFinished else { return false }
            switch command {
            case .print(let text), .printDiagnostic(let text): shared.commands.append(command, bytes: text.utf8.count + 1)
            default: shared.commands.appendUncounted(command)
            }
            return true
        }
        if accepted { wake() }
        return accepted
    }

    func close(timeout: DispatchTimeInterval) {
        let done = DispatchSemaphore(value: 0)
        let (queued, onThisThread) = shared.withLock { shared -> (Bool, Bool) in
            guard !shared.isFinished, !shared.isClosing else { return (false, false) }
            shared.commands.appendUncounted(.close(done))
            shared.isClosing = true
            return (true, shared.thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false)
        }
        guard queued else { return }
        if onThisThread {
            // The close is done by the loop once the current callback returns.
            wake()
            return
        }
        wake()
        _ = done.wait(timeout: .now() + timeout)
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakePipe.write, &byte, 1)
    }
}

private func closeDescriptor(_ fd: Int32) {
    _ = close(fd)
}
