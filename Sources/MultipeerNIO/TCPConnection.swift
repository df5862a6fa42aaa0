import Foundation
import Multipeer
import NIOCore
import Synchronization

/// One TCP connection, as the session sees it: a ``Multipeer/Connection`` over a NIO `Channel`.
///
/// ``send(_:)`` and ``close()`` may be called from any thread. Off the channel's event loop both
/// only append to a queue under a lock and, when needed, schedule one task on the loop that
/// writes everything queued with a single flush; on the loop with nothing queued, a frame is
/// written at once. Either way frames go out in exactly the order they were queued, whichever
/// threads queued them, and a burst of sends from elsewhere costs one flush.
final class TCPConnection: Connection, Sendable {
    /// How long ``close()`` waits for the other side to take more of the queued frames, or, once
    /// all are written, to close its end, before closing anyway.
    static let closeGracePeriod: TimeAmount = .seconds(2)

    let channel: any Channel
    let remoteDescription: String
    let remoteAddress: String
    /// The most bytes that may wait in the channel for the other side (``LinkOptions/maximumQueuedBytes``).
    let maximumQueuedBytes: Int
    /// The most bytes one flush hands the channel (``LinkOptions/maximumFlushBytes``); nil: no limit.
    let maximumFlushBytes: Int?
    private let state = Mutex(State())

    /// A frame (or a run of stream frames) queued off the loop, and whom to tell once it is
    /// written below.
    struct Queued {
        let buffer: ByteBuffer
        let written: (@Sendable () -> Void)?
    }

    private struct State {
        var queued: [Queued] = []
        var drainScheduled = false
        var closeRequested = false
        /// Whether a drain has begun closing (it must happen once, however many drains run).
        var closeStarted = false
    }

    /// The check of the peer's TLS certificate; nil without TLS.
    let check: PeerCertificateCheck?

    var provenPeer: PeerFingerprint? { check?.proof?.key }
    var provenOwner: PeerFingerprint? { check?.proof?.owner }
    var localKey: PeerFingerprint? { check?.localKey }

    init(
        channel: any Channel, remoteDescription: String, maximumQueuedBytes: Int = LinkOptions().maximumQueuedBytes,
        maximumFlushBytes: Int? = nil, check: PeerCertificateCheck? = nil
    ) {
        self.maximumFlushBytes = maximumFlushBytes
        self.channel = channel
        self.check = check
        self.remoteDescription = remoteDescription
        remoteAddress = RemoteAddress.host(of: remoteDescription)
        self.maximumQueuedBytes = maximumQueuedBytes
    }

    /// Whether ``close()`` has been called: the bridge then reports the close as orderly, whatever
    /// errors the closing itself provokes.
    var isClosing: Bool { state.withLock(\.closeRequested) }

    func pauseReading() { setAutoRead(false) }

    func resumeReading() { setAutoRead(true) }

    /// On the loop at once (so that a pause made while the channel becomes active comes before
    /// its first read); from elsewhere, as the loop's next task. Turning it on reads at once.
    private func setAutoRead(_ on: Bool) {
        if channel.eventLoop.inEventLoop {
            try? channel.syncOptions?.setOption(.autoRead, value: on)
        } else {
            channel.setOption(.autoRead, value: on).whenFailure { _ in }
        }
    }

    func send(_ frame: EncodedFrame) {
        send(ByteBuffer(bytes: frame.bytes), written: nil)
    }

    /// The frames framed in one buffer (``StreamDataFrames``), written with one flush; `written`
    /// is called once the TLS layer or the socket took them, or they were dropped.
    func sendStreamData(id: UInt32, _ bytes: Data, chunkLength: Int, written: @escaping @Sendable () -> Void) {
        send(StreamDataFrames.encode(id: id, bytes, chunkLength: chunkLength), written: written)
    }

    private func send(_ buffer: ByteBuffer, written: (@Sendable () -> Void)?) {
        if channel.eventLoop.inEventLoop {
            sendOnLoop(Queued(buffer: buffer, written: written))
            return
        }
        if enqueue(buffer, written: written) { channel.eventLoop.execute { self.drain() } }
    }

    /// Queues `buffer` behind the frames already queued; true when the caller must arrange a
    /// ``drain()`` on the channel's event loop (none is scheduled yet). After ``close()`` the
    /// frame is dropped.
    func enqueue(_ buffer: ByteBuffer, written: (@Sendable () -> Void)? = nil) -> Bool {
        let outcome = state.withLock { state -> Bool? in
            guard !state.closeRequested else { return nil }  // Frames after close() are dropped.
            state.queued.append(Queued(buffer: buffer, written: written))
            defer { state.drainScheduled = true }
            return !state.drainScheduled
        }
        if outcome == nil { written?() }
        return outcome ?? false
    }

    /// A promise that calls `written` once the write it goes with completed or failed; nil for nil.
    private func promise(calling written: (@Sendable () -> Void)?) -> EventLoopPromise<Void>? {
        guard let written else { return nil }
        let promise = channel.eventLoop.makePromise(of: Void.self)
        promise.futureResult.whenComplete { _ in written() }
        return promise
    }

    /// On the channel's own thread (a reply from inside a read, say) nothing needs scheduling:
    /// the frame is written and flushed at once, saving a task and a loop iteration on the hot
    /// path. Frames queued earlier (a broadcast waiting for its turn) go out first, at once too,
    /// so a reply never waits for a scheduled drain; that drain later finds nothing to do.
    private func sendOnLoop(_ frame: Queued) {
        enum Route { case direct, queued, dropped }
        let route = state.withLock { state -> Route in
            if state.closeRequested { return .dropped }
            if state.drainScheduled {
                state.queued.append(frame)
                return .queued
            }
            return .direct
        }
        switch route {
        case .direct:
            let buffer = frame.buffer
            guard hasRoom(for: buffer.readableBytes) else { return }
            if let limit = maximumFlushBytes, buffer.readableBytes > limit {
                write(CollectionOfOne(buffer), flushingEvery: limit)
                frame.written?()
            } else {
                channel.writeAndFlush(buffer, promise: promise(calling: frame.written))
            }
        case .queued: drain()
        case .dropped: frame.written?()
        }
    }

    /// Whether `bytes` more fit within ``maximumQueuedBytes``; when they do not, the connection is
    /// closed with ``Multipeer/MultipeerError/Code/peerNotReading`` and nothing more is queued.
    /// Checked only while the channel is unwritable (above the high water mark), so the common
    /// path asks nothing of the channel.
    private func hasRoom(for bytes: Int) -> Bool {
        channel.eventLoop.assertInEventLoop()
        guard !channel.isWritable, let buffered = try? channel.syncOptions?.getOption(.bufferedWritableBytes) else { return true }
        guard buffered + bytes > maximumQueuedBytes else { return true }
        // The error first: the bridge reports errors only of a connection not closing already.
        channel.pipeline.fireErrorCaught(MultipeerError.peerNotReading(remoteDescription, limit: maximumQueuedBytes))
        state.withLock { state in
            state.closeRequested = true
            state.closeStarted = true
            state.queued = []
        }
        return false
    }

    /// Writes `frames` in order and flushes, handing the channel at most `limit` bytes per
    /// flush: each flush is filled up to the limit, a frame's end and the next one's start
    /// sharing one when they fit.
    private func write(_ frames: some Collection<ByteBuffer>, flushingEvery limit: Int) {
        var unflushed = 0
        for frame in frames {
            var rest = frame
            while let piece = rest.readSlice(length: min(limit - unflushed, rest.readableBytes)), piece.readableBytes > 0 {
                channel.write(piece, promise: nil)
                unflushed += piece.readableBytes
                if unflushed == limit {
                    channel.flush()
                    unflushed = 0
                }
            }
        }
        if unflushed > 0 { channel.flush() }
    }

    func close() {
        let schedule = state.withLock { state -> Bool in
            guard !state.closeRequested else { return false }
            state.closeRequested = true
            defer { state.drainScheduled = true }
            return !state.drainScheduled
        }
        if schedule { channel.eventLoop.execute { self.drain() } }
    }

    /// Closes the channel at once: queued frames, and any the TLS handler still holds for a
    /// handshake that has not completed, are dropped.
    func abort() {
        let first = state.withLock { state -> Bool in
            guard !state.closeStarted else { return false }
            (state.closeRequested, state.closeStarted, state.queued) = (true, true, [])
            return true
        }
        guard first else { return }
        let channel = channel
        channel.eventLoop.execute { channel.close(mode: .all, promise: nil) }
    }

    /// Writes what is queued; after ``close()``, then shuts down the sending half and lets the other
    /// side close (a full close right away could reset the connection and lose frames in flight).
    func drain() {
        channel.eventLoop.assertInEventLoop()
        let (frames, closing) = state.withLock { state in
            let closing = state.closeRequested && !state.closeStarted
            defer {
                state.queued = []
                state.drainScheduled = false
                if closing { state.closeStarted = true }
            }
            return (state.queued, closing)
        }
        if !frames.isEmpty, !hasRoom(for: frames.reduce(0) { $0 + $1.buffer.readableBytes }) { return }
        if let limit = maximumFlushBytes, !frames.isEmpty {
            write(frames.lazy.map(\.buffer), flushingEvery: limit)
            for frame in frames { frame.written?() }
        } else {
            switch frames.count {
            case 0: break  // a drain scheduled for frames that a send on the loop wrote already
            case 1: channel.writeAndFlush(frames[0].buffer, promise: promise(calling: frames[0].written))
            default:
                for frame in frames { channel.write(frame.buffer, promise: promise(calling: frame.written)) }
                channel.flush()
            }
        }
        guard closing else { return }
        // `close(mode: .output)` waits for the pending writes, then sends FIN. The other side answers
        // by closing, which closes this channel. The safety net covers a peer that stops reading.
        let channel = self.channel
        channel.close(mode: .output).whenFailure { _ in
            channel.close(mode: .all, promise: nil)  // Half-closing unsupported or already closed.
        }
        Self.watchClose(of: channel, previouslyUnwritten: nil)
    }

    /// The safety net of a close. Every ``closeGracePeriod`` it looks at the bytes still waiting
    /// to be written: while the other side keeps taking them it waits on, so a slow reader (a busy
    /// machine) still gets every frame before the close; once all are written, the other side has
    /// one more period to close its end; a peer that took nothing for a whole period is cut off.
    private static func watchClose(of channel: any Channel, previouslyUnwritten: Int?) {
        let check = channel.eventLoop.scheduleTask(in: closeGracePeriod) {
            guard channel.isActive else { return }
            let unwritten = (try? channel.syncOptions?.getOption(.bufferedWritableBytes)) ?? 0
            if let previouslyUnwritten, unwritten >= previouslyUnwritten {
                channel.close(mode: .all, promise: nil)
            } else {
                watchClose(of: channel, previouslyUnwritten: unwritten)
            }
        }
        channel.closeFuture.whenComplete { _ in check.cancel() }
    }
}
