import EventBus
import Multipeer

/// A client end that a test drives by hand: it sends whatever bytes it is given and records
/// what comes back. Made by ``InMemoryNetwork/openRawConnection(toPort:)``.
public final class RawConnection: ConnectionHandler {
    private struct State: Sendable {
        var connection: (any Connection)?
        var frames: [Frame] = []
        var closed = false
        var closeError: MultipeerError?
    }

    private let state = Watched(State())

    public init() {}

    /// Frames received so far.
    public var receivedFrames: [Frame] { state.withLock { $0.frames } }
    /// The frames received by the time they meet `condition`, or by `deadline`.
    @discardableResult
    public func frames(until condition: @escaping @Sendable ([Frame]) -> Bool, before deadline: ContinuousClock.Instant) async -> [Frame] {
        await state.wait(until: { condition($0.frames) }, before: deadline).frames
    }

    /// Whether the connection has closed.
    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Sends raw bytes (they need not form a frame).
    public func send(bytes: [UInt8]) {
        (state.withLock { $0.connection } as? InMemoryConnection)?.sendBytes(bytes)
    }

    /// Sends a well-formed frame.
    public func send(_ frame: Frame) {
        send(bytes: FrameCodec.encode(frame).bytes)
    }

    /// Closes the connection from this side.
    public func close() {
        state.withLock { $0.connection }?.close()
    }

    public func connectionDidOpen(_ connection: any Connection) {
        state.withLock { $0.connection = connection }
    }

    public func connection(_ connection: any Connection, didReceive frame: Frame) {
        state.withLock { $0.frames.append(frame) }
    }

    public func connection(_ connection: any Connection, didCloseWith error: MultipeerError?) {
        state.withLock { $0.closed = true; $0.closeError = error }
    }
}
