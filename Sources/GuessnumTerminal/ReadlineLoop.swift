import CReadline
import Foundation
import Synchronization

// Everything that touches readline lives in this file and in ReadlineCallbacks.swift, and runs
// on the readline thread (see the note in CReadline/shim.h on its static variables).

/// The readline thread: owns readline and the terminal from ``ReadlineSession/start()`` until
/// the close. Made on that thread and never handed to another, so its state needs no lock; what
/// other threads send it waits in its session's ``ReadlineSession/shared`` queue.
final class ReadlineLoop {
    private let session: ReadlineSession
    private var prompt: String
    /// Whether readline's line handler is installed (until end of input or close).
    private var isReading = false
    private var isRunning = true
    /// Whether ``ConsoleInput/ended`` was delivered.
    private var inputEnded = false
    /// While a hidden line is typed: the prompt to show again after it.
    private var promptAfterHiddenLine: String?
    private var previousActions: [Int32: sigaction] = [:]
    /// The close being carried out, signalled once the thread has finished.
    private var closing: DispatchSemaphore?

    init(session: ReadlineSession) {
        self.session = session
        prompt = session.initialPrompt
    }

    /// Where the running loop is kept for readline's callbacks, which carry no context: in its
    /// thread's dictionary, so only that thread finds it.
    private static let threadKey = "guessnum.readline.loop"

    /// The loop of the calling thread, when that is the readline thread.
    static var current: ReadlineLoop? { Thread.current.threadDictionary[threadKey] as? ReadlineLoop }


    func run() {
        Thread.current.threadDictionary[Self.threadKey] = self
        defer { Thread.current.threadDictionary[Self.threadKey] = nil }
        session.shared.withLock { $0.thread = pthread_self() }
        setUp()
        while isRunning {
            var fds = [
                pollfd(fd: session.wakePipe.read, events: Int16(POLLIN), revents: 0),
                pollfd(fd: session.signalPipe.read, events: Int16(POLLIN), revents: 0),
                pollfd(fd: isReading ? STDIN_FILENO : -1, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            if fds[1].revents != 0 { handleSignals() }
            if fds[2].revents != 0 && isReading { rl_callback_read_char() }
            if fds[0].revents != 0 { handleCommands() }
        }
        if isRunning { tearDown() }
        let leftovers = session.shared.withLock { shared -> [OutputBacklog<ReadlineSession.Command>.Entry] in
            shared.isFinished = true
            var entries: [OutputBacklog<ReadlineSession.Command>.Entry] = []
            while let entry = shared.commands.popFirst() { entries.append(entry) }
            return entries
        }
        activeSession.withLock { if $0 === session { $0 = nil } }
        var closes = closing.map { [$0] } ?? []
        for entry in leftovers {
            switch entry {
            case .item(.print(let text)): OutputPump.shared.write(text)
            case .item(.printDiagnostic(let text)): OutputPump.shared.write(text, to: .error)
            case .item(.close(let done)): closes.append(done)
            case .skipped(let count): OutputPump.shared.write(OutputBacklog<ReadlineSession.Command>.skippedLine(count))
            case .item: break
            }
        }
        if !leftovers.isEmpty { OutputPump.shared.drain(timeout: .seconds(1)) }
        for done in closes {
            done.signal()
        }
    }

    private func setUp() {
        creadline_set_readline_name("guessnum")
        creadline_disable_signal_handlers()
        slashCompletions.withLock { $0 = session.completions }
        creadline_set_completion(attemptCompletion)
        using_history()
        stifle_history(Int32(HistoryStore.maximumLines))
        if let history = session.history {
            _ = read_history(history.fileURL.path)
        }
        // Threads inherit the signal mask of their creator, which may block everything (test
        // runners, thread pools): this thread accepts the signals it handles.
        var handled = sigset_t()
        sigemptyset(&handled)
        for signal in [SIGINT, SIGWINCH] {
            sigaddset(&handled, signal)
            var previous = sigaction()
            if creadline_route_signal(signal, session.signalPipe.write, &previous) == 0 {
                previousActions[signal] = previous
            }
        }
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
        creadline_remember_terminal()
        rl_callback_handler_install(prompt, readlineLineHandler)
        isReading = true
    }

    private func tearDown() {
        showLinesAgain()
        if isReading {
            rl_clear_visible_line()
            rl_callback_handler_remove()
            isReading = false
        }
        creadline_forget_terminal()
        for (signal, previous) in previousActions {
            var previous = previous
            _ = creadline_restore_signal(signal, &previous)
        }
        previousActions = [:]
        creadline_forget_signal_fd()
        creadline_set_completion(nil)
        saveHistory()
        endInput()
        isRunning = false
    }

    private func saveHistory() {
        guard let history = session.history else { return }
        let directory = history.fileURL.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if write_history(history.fileURL.path) == 0 {
            _ = history_truncate_file(history.fileURL.path, Int32(HistoryStore.maximumLines))
        }
    }

    private func handleCommands() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(session.wakePipe.read, &buffer, buffer.count) > 0 {}
        while isRunning {
            let entry = session.shared.withLock { shared in shared.commands.popFirst() }
            guard let entry else { return }
            let command: ReadlineSession.Command
            switch entry {
            case .item(let item): command = item
            case .skipped(let count): command = .print(OutputBacklog<ReadlineSession.Command>.skippedLine(count))
            }
            switch command {
            case .print(let text):
                display(text, on: creadline_write_out, otherwise: StandardStreams.writeLine)
            case .printDiagnostic(let text):
                display(text, on: creadline_write_stderr, otherwise: StandardStreams.writeErrorLine)
            case .setPrompt(let newPrompt):
                if promptAfterHiddenLine != nil {
                    promptAfterHiddenLine = newPrompt
                } else {
                    changePrompt(to: newPrompt)
                }
            case .hideNextLine(let secretPrompt):
                if promptAfterHiddenLine == nil { promptAfterHiddenLine = prompt }
                creadline_hide_line(1)
                changePrompt(to: secretPrompt)
            case .discardTypedLine:
                // Not a hidden line being typed: that one answers a question still asked.
                if isReading, promptAfterHiddenLine == nil, creadline_end() > 0 {
                    rl_clear_visible_line()
                    rl_replace_line("", 1)
                    creadline_set_point(0)
                    rl_on_new_line()
                    creadline_redisplay()
                }
            case .resumeInput:
                if !isReading {
                    rl_callback_handler_install(prompt, readlineLineHandler)
                    isReading = true
                    inputEnded = false
                }
            case .close(let done):
                tearDown()
                // Signalled by `run` once the thread is marked finished (after the messages
                // queued meanwhile are printed).
                closing = done
            }
        }
    }

    /// Prints `text` above the prompt and redraws the prompt and the line being typed, with
    /// the cursor where it was.
    private func display(
        _ text: String, on stream: (UnsafePointer<CChar>?, Int) -> Int32, otherwise writeLine: (String) -> Void
    ) {
        guard isReading else {
            writeLine(text)
            return
        }
        let point = creadline_point()
        rl_clear_visible_line()
        // Readline cleared the line on its own (buffered) stream: flush that first, or a
        // message on standard error would land before the clearing and be erased with it.
        _ = creadline_write_out(nil, 0)
        emit(text + "\n", to: stream)
        rl_on_new_line()
        creadline_set_point(point)
        creadline_redisplay()
    }

    private func changePrompt(to newPrompt: String) {
        prompt = newPrompt
        guard isReading else { return }
        rl_clear_visible_line()
        rl_set_prompt(newPrompt)
        rl_on_new_line()
        creadline_redisplay()
    }

    private func writeOut(_ text: String) {
        emit(text, to: creadline_write_out)
    }

    private func emit(_ text: String, to stream: (UnsafePointer<CChar>?, Int) -> Int32) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                _ = stream(chars.baseAddress, chars.count)
            }
        }
    }

    /// Delivers ``ConsoleInput/ended`` once.
    private func endInput() {
        guard !inputEnded else { return }
        inputEnded = true
        session.input(.ended)
    }

    private func handleSignals() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(session.signalPipe.read, &buffer, buffer.count)
            guard count > 0 else { return }
            for signal in buffer[0..<count] {
                switch Int32(signal) {
                case SIGINT: interrupt()
                case SIGWINCH: if isReading { rl_resize_terminal() }
                default: break
                }
            }
        }
    }

    /// Ctrl-C: abandons the line being typed (left visible, followed by "^C") and shows a
    /// fresh prompt.
    private func interrupt() {
        guard isReading else { return }
        let hadText = creadline_end() > 0
        defer { session.input(.interrupted(clearedText: hadText)) }
        rl_callback_sigcleanup()
        creadline_set_point(creadline_end())
        creadline_redisplay()
        writeOut("^C\n")
        rl_free_line_state()
        rl_replace_line("", 1)
        creadline_set_point(0)
        using_history()
        // Ctrl-C abandons a hidden line as any other.
        showLinesAgain()
        rl_on_new_line()
        rl_redisplay()
    }

    /// Called by readline (on this thread) with each line entered, or nil at end of input.
    func lineEntered(_ line: String?) {
        let wasHidden = promptAfterHiddenLine != nil
        showLinesAgain()
        guard let line else {
            // End of input: readline has already restored the terminal.
            rl_callback_handler_remove()
            isReading = false
            writeOut("\n")
            endInput()
            return
        }
        if !wasHidden && !line.isEmpty && line != lastHistoryEntry() && session.keepsInHistory(line) {
            add_history(line)
        }
        using_history()
        session.input(.line(line))
    }

    /// Ends a hidden line, if one is being typed: lines show again, with the prompt from before.
    private func showLinesAgain() {
        guard let previous = promptAfterHiddenLine else { return }
        promptAfterHiddenLine = nil
        creadline_hide_line(0)
        prompt = previous
        rl_set_prompt(previous)
    }

    private func lastHistoryEntry() -> String? {
        creadline_last_history_line().map { String(cString: $0) }
    }
}
