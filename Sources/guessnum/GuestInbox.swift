import GuessnumTerminal

/// Everything a guest's REPL waits for, in one stream: typed lines, changes in the list of
/// games, the host leaving, and Ctrl-C / SIGTERM.
struct GuestInbox: Sendable {
    enum Item: Sendable {
        case line(String)
        case endOfInput
        case gamesChanged
        case hostLeft(String)
        case signal
    }

    let items: AsyncStream<Item>
    let continuation: AsyncStream<Item>.Continuation
    private let feeders: [Task<Void, Never>]

    init(console: any Console) {
        let (items, continuation) = AsyncStream<Item>.makeStream(bufferingPolicy: .bufferingOldest(1024))
        self.items = items
        self.continuation = continuation
        feeders = [
            Task {
                for await line in console.lines { continuation.yield(.line(line)) }
                continuation.yield(.endOfInput)
            },
            Task {
                await Signals.wait()
                if !Task.isCancelled { continuation.yield(.signal) }
            },
        ]
    }

    func post(_ item: Item) {
        continuation.yield(item)
    }

    func close() {
        for feeder in feeders { feeder.cancel() }
        continuation.finish()
    }
}
