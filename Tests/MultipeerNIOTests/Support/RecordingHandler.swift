@testable import MultipeerNIO
import Multipeer
import MultipeerTestSupport
import Synchronization

/// A ``ConnectionHandler`` that records what it hears, thread-safely, and checks how it is called.
final class RecordingHandler: ConnectionHandler, Sendable {
    enum Event: Equatable, Sendable {
        case opened
        case received(Frame)
        case closed(MultipeerError?)
        case writable(Bool)
    }

    private struct State {
        var events: [Event] = []
        var connection: (any Connection)?
        var inCall = false
        var overlapped = false
        var offEventLoop = false
    }

    /// What the handler does with each frame it receives, inside the call, as a real handler
    /// (the session) does: a reply or a close may come straight from a read.
    enum Reaction: Sendable {
        /// Nothing.
        case none
        /// Sends every frame straight back.
        case echo
        /// Closes the connection on the first frame.
        case close
    }

    private let state = Mutex(State())
    private let reaction: Reaction

    init(echoes: Bool = false) {
        reaction = echoes ? .echo : .none
    }

    init(reaction: Reaction) {
        self.reaction = reaction
    }

    func connectionDidOpen(_ connection: any Connection) {
        state.withLock { $0.connection = connection }
        record(.opened, connection)
    }

    func connection(_ connection: any Connection, didReceive frame: Frame) {
        record(.received(frame), connection) { state in
            switch reaction {
            case .none: break
            case .echo: connection.send(FrameCodec.encode(frame))
            case .close: if state.events.count == 2 { connection.close() }
            }
        }
    }

    func connection(_ connection: any Connection, didCloseWith error: MultipeerError?) {
        record(.closed(error), connection)
    }

    func connection(_ connection: any Connection, didChangeWritability isWritable: Bool) {
        record(.writable(isWritable), connection)
    }

    /// The writability changes heard, in order.
    var writability: [Bool] {
        events.compactMap { if case .writable(let isWritable) = $0 { isWritable } else { nil } }
    }

    /// Records `event`, and counts the call as in progress until `body` (the handler's reaction,
    /// run outside the lock so it may call back into the connection) has returned: a call that
    /// begins before the last one ended, on any thread or nested inside it, is an overlap.
    private func record(_ event: Event, _ connection: any Connection, body: (State) -> Void = { _ in }) {
        let onLoop = (connection as? TCPConnection)?.channel.eventLoop.inEventLoop ?? true
        let snapshot = state.withLock { state in
            if state.inCall { state.overlapped = true }
            state.inCall = true
            if !onLoop { state.offEventLoop = true }
            state.events.append(event)
            return state
        }
        defer { state.withLock { $0.inCall = false } }
        body(snapshot)
    }

    var events: [Event] { state.withLock(\.events) }
    var connection: (any Connection)? { state.withLock(\.connection) }
    var frames: [Frame] {
        events.compactMap { if case .received(let frame) = $0 { frame } else { nil } }
    }

    /// The close event's error: nil while open, `.some(nil)` after an orderly close.
    var closeError: MultipeerError?? {
        for case .closed(let error) in events { return .some(error) }
        return nil
    }

    var isClosed: Bool { closeError != nil }

    /// Whether a call began while another was still running (nested in it or beside it).
    var overlapped: Bool { state.withLock(\.overlapped) }

    /// Opened once and first, closed at most once and last, calls never overlapping, all on the
    /// connection's event loop.
    var followedContract: Bool {
        state.withLock { state in
            let events = state.events
            let opens = events.filter { $0 == .opened }.count
            let closes = events.filter { if case .closed = $0 { true } else { false } }.count
            let closeIsLast = closes == 0 || { if case .closed = events.last { true } else { false } }()
            return events.first == .opened && opens == 1 && closes <= 1 && closeIsLast
                && !state.overlapped && !state.offEventLoop
        }
    }

    /// Waits, a few seconds at most, until `condition` holds for the recorded events.
    func wait(
        within timeout: Duration = .seconds(30),
        until condition: @escaping @Sendable (RecordingHandler) -> Bool
    ) async -> Bool {
        await eventually(within: timeout) { condition(self) }
    }

    func waitForFrames(_ count: Int) async -> Bool { await wait { $0.frames.count >= count } }
    func waitForClose() async -> Bool { await wait { $0.isClosed } }
}

/// Collects the handler of every connection a listener accepts.
final class AcceptedHandlers: Sendable {
    private let handlers = Mutex<[RecordingHandler]>([])
    private let echoes: Bool

    init(echoes: Bool = false) {
        self.echoes = echoes
    }

    /// For `Transport.listen(port:options:makeHandler:)`.
    func make() -> any ConnectionHandler {
        let handler = RecordingHandler(echoes: echoes)
        handlers.withLock { $0.append(handler) }
        return handler
    }

    var all: [RecordingHandler] { handlers.withLock { $0 } }

    /// The first accepted connection's handler, once it has opened.
    func first() async -> RecordingHandler? {
        _ = await eventually { self.all.first?.connection != nil }
        return all.first
    }
}
