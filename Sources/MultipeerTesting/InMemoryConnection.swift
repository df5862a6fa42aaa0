import Dispatch
import Multipeer
import Synchronization

/// The two ends of one in-memory connection and whether the line between them still carries.
final class InMemoryLink: Sendable {
    let clientPort: Int
    private let ends = Mutex<(client: InMemoryConnection?, server: InMemoryConnection?, severed: Bool)>((nil, nil, false))

    init(clientPort: Int) {
        self.clientPort = clientPort
    }

    func attach(client: InMemoryConnection, server: InMemoryConnection) {
        ends.withLock { $0 = (client, server, false) }
    }

    func sever() {
        ends.withLock { $0.severed = true }
    }

    /// Cuts the line and ends both connections with an error, as a reset would.
    func reset() {
        let (client, server) = ends.withLock { ends in
            ends.severed = true
            return (ends.client, ends.server)
        }
        client?.reset()
        server?.reset()
    }

    /// Cuts the line and ends only the client's connection with an error, as a client whose
    /// network went away sees it: the server hears nothing (until its peer times out).
    func resetClientOnly() {
        let client = ends.withLock { ends in
            ends.severed = true
            return ends.client
        }
        client?.reset()
    }

    /// The other end, or nil when the line is severed.
    func peer(of side: InMemoryConnection.Side) -> InMemoryConnection? {
        ends.withLock { ends in
            if ends.severed { return nil }
            return side == .client ? ends.server : ends.client
        }
    }
}

/// One end of an in-memory connection: bytes sent here are decoded by the other end's
/// ``FrameDecoder`` on the other end's queue.
final class InMemoryConnection: Connection {
    enum Side { case client, server }

    let remoteDescription: String
    let remoteAddress: String
    /// The line this end is on.
    let link: InMemoryLink
    private let side: Side
    private let handler: any ConnectionHandler
    private let queue: DispatchQueue
    /// Where this end's deliveries are counted.
    private let deliveries: InMemoryDeliveries
    /// Touched only on `queue`.
    private let receiver: Mutex<(decoder: FrameDecoder, closed: Bool)>
    /// While reading is paused, the bytes that arrived, to read on resuming; nil while reading.
    private let paused = Mutex<[[UInt8]]?>(nil)
    /// Set by ``close()``: later sends are dropped, as over TCP.
    private let closeRequested = Atomic<Bool>(false)

    init(link: InMemoryLink, side: Side, options: LinkOptions, handler: any ConnectionHandler, remote: String, deliveries: InMemoryDeliveries) {
        self.link = link
        self.deliveries = deliveries
        self.side = side
        self.handler = handler
        remoteDescription = remote
        remoteAddress = RemoteAddress.host(of: remote)
        queue = DispatchQueue(label: "multipeer.memory.\(side)")
        receiver = Mutex((FrameDecoder(maximumFrameLength: options.maximumFrameLength), false))
    }

    func open() {
        deliver { self.handler.connectionDidOpen(self) }
    }

    func openAndWait() async {
        await withCheckedContinuation { continuation in
            deliver {
                self.handler.connectionDidOpen(self)
                continuation.resume()
            }
        }
    }

    /// Runs `work` on this end's queue, counted among the network's deliveries.
    private func deliver(_ work: @escaping @Sendable () -> Void) {
        deliveries.async(on: queue, work)
    }

    func send(_ frame: EncodedFrame) {
        sendBytes(frame.bytes)
    }

    /// Sends arbitrary bytes, framed or not.
    func sendBytes(_ bytes: [UInt8]) {
        guard !closeRequested.load(ordering: .acquiring), !isClosed, let other = link.peer(of: side) else { return }
        other.deliver { other.receive(bytes) }
    }

    func close() {
        closeRequested.store(true, ordering: .releasing)
        let other = link.peer(of: side)
        deliver { self.finish(nil) }
        other?.deliver { other?.finish(nil) }
    }

    /// Ends this connection with an error and no goodbye, as a connection reset does.
    func reset() {
        closeRequested.store(true, ordering: .releasing)
        deliver { self.finish(.connectionClosed("unexpectedly (the other side reset it)")) }
    }

    private var isClosed: Bool { receiver.withLock { $0.closed } }

    func pauseReading() {
        paused.withLock { if $0 == nil { $0 = [] } }
    }

    func resumeReading() {
        deliver {
            let waited = self.paused.withLock { paused in
                defer { paused = nil }
                return paused ?? []
            }
            for bytes in waited { self.receive(bytes) }
        }
    }

    private func receive(_ bytes: [UInt8]) {
        let held = paused.withLock { paused in
            guard paused != nil else { return false }
            paused?.append(bytes)
            return true
        }
        if held { return }
        let result: Result<[Frame], MultipeerError> = receiver.withLock { receiver in
            guard !receiver.closed else { return .success([]) }
            receiver.decoder.append(bytes)
            var frames: [Frame] = []
            do throws(MultipeerError) {
                while let frame = try receiver.decoder.nextFrame() { frames.append(frame) }
                return .success(frames)
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let frames):
            for frame in frames { handler.connection(self, didReceive: frame) }
        case .failure(let error):
            finish(error)
            let other = link.peer(of: side)
            other?.deliver { other?.finish(nil) }
        }
    }

    /// Reports the close once; runs on `queue`.
    private func finish(_ error: MultipeerError?) {
        let first = receiver.withLock { receiver in
            defer { receiver.closed = true }
            return !receiver.closed
        }
        if first { handler.connection(self, didCloseWith: error) }
    }
}
