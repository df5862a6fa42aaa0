import Foundation
import Multipeer
import MultipeerNIO
import Synchronization

/// Resources over TLS 1.3 on loopback between two processes: a ``Session`` in this process sends
/// a file with ``Session/sendResource(at:named:to:)`` to a session in a child process that
/// accepts it (``ResourceSink``); both use a ``CuttableTransport`` around `TCPTransport`, so
/// the stream bytes each link carried are counted and the child can cut the link. When the link
/// drops, this side invites the child again at once (as `guessnum send` does), and the transfer
/// resumes from what the child holds.
final class ResourceTransfer {
    private let sender: Session
    private let transport: CuttableTransport
    private let sink: WorkerProcess
    private let sinkPeer: PeerID
    private let redialer: Redialer
    private let stopWatching: () -> Void

    /// One file sent: when it started and ended, what each side's memory and CPU did, and, for
    /// a cut transfer, the cut, the resume and the stream bytes each link carried.
    struct Outcome {
        /// When the transfer started (``MonotonicClock``).
        let startNanoseconds: UInt64
        let seconds: Double
        let hashSeconds: Double
        let senderCPUNanoseconds: UInt64
        let senderMemory: MemoryWatch.Growth
        /// The child's `saved` report.
        let receiver: [String: Any]
        /// The child's `cut` report, for a cut transfer.
        let cut: [String: Any]?
        /// Stream bytes sent on the link that was cut (this transfer's part), and on the links after it.
        let sentBeforeCut: Int
        let sentAfterCut: Int
        let reconnection: Redialer.Reconnection?
    }

    private init(
        sender: Session, transport: CuttableTransport, sink: WorkerProcess, sinkPeer: PeerID, redialer: Redialer,
        stopWatching: @escaping () -> Void
    ) {
        self.sender = sender
        self.transport = transport
        self.sink = sink
        self.sinkPeer = sinkPeer
        self.redialer = redialer
        self.stopWatching = stopWatching
    }

    /// Starts the child, receiving into `inbox`, and connects to it.
    static func start(inbox: URL) async throws -> ResourceTransfer {
        let sink = try WorkerProcess(subcommand: "stream-peer", arguments: ["--role", "resource-sink", "--inbox", inbox.path])
        guard let line = await sink.nextLine(), let report = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let port = report["port"] as? Int
        else { throw BenchFailure("the resource sink did not start") }
        let key = PeerKey.generate()
        let transport = CuttableTransport(base: TCPTransport(credentials: try TLSCredentials(key: key)))
        let sender = Session(localPeer: try key.peer(displayName: "resource sender"), transport: transport)
        let endpoint = try Endpoint(host: "127.0.0.1", port: port)
        guard case .connected(let sinkPeer) = try await sender.invite(endpoint, timeout: .seconds(10)) else {
            throw BenchFailure("the resource sink did not take the invitation")
        }
        let redialer = Redialer(session: sender, endpoint: endpoint)
        let observation = sender.events.observe(.stateChanged) { change in
            if change.peer == sinkPeer, change.state == .notConnected { redialer.dropped() }
        }
        return ResourceTransfer(
            sender: sender, transport: transport, sink: sink, sinkPeer: sinkPeer, redialer: redialer, stopWatching: { observation.cancel() })
    }

    /// Who cuts the link in a cut transfer.
    enum Cutter: String, Sendable {
        /// The child, once it holds more than the part asked for.
        case receiver
        /// This side, once it has sent more than the part asked for.
        case sender
    }

    /// Sends `file`; with `cutAt` above 0, `cutter` cuts the link once that part of it was
    /// received (or sent).
    func send(_ file: URL, cutAt: Double, by cutter: Cutter = .receiver) async throws -> Outcome {
        sink.send("arm \(cutter == .receiver ? cutAt : 0)")
        guard let armed = await sink.nextLine(), armed.contains("armed") else { throw BenchFailure("the resource sink stopped") }
        let dropsBefore = redialer.reconnections.count
        let closedBefore = transport.closedLinkBytes.count
        let openBefore = transport.openLinkBytes
        let watch = MemoryWatch()
        let cpu = ProcessCPU.nanoseconds()
        let start = MonotonicClock.nanoseconds()
        let resource = try sender.sendResource(at: file, to: sinkPeer)
        let cutting = cutAt > 0 && cutter == .sender ? Task { [transport] () -> [String: any Sendable]? in
            let threshold = Int64(Double(resource.totalBytes) * cutAt)
            for await step in resource.progressUpdates where step.completedBytes > threshold {
                transport.cut()
                return ["event": "cut", "sent": step.completedBytes, "cut_ns": MonotonicClock.nanoseconds()]
            }
            return nil
        } : nil
        try await resource.outcome()
        let end = MonotonicClock.nanoseconds()
        let senderCPU = ProcessCPU.nanoseconds() - cpu
        let memory = watch.stop()

        var cut: [String: Any]? = await cutting?.value
        var saved: [String: Any]?
        while saved == nil, let line = await sink.nextLine() {
            guard let report = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
            switch report["event"] as? String {
            case "cut": cut = report
            case "saved": saved = report
            default: throw BenchFailure("the resource sink reported \(line)")
            }
        }
        guard let saved else { throw BenchFailure("the resource sink stopped before it saved the file") }
        let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? -1
        guard saved["bytes"] as? Int == size else { throw BenchFailure("the resource sink saved \(saved["bytes"] ?? "?") bytes of \(size)") }
        if cutAt > 0, cut == nil { throw BenchFailure("the resource sink never cut the link") }

        // The link this transfer started on, and whatever links came after it.
        let closed = transport.closedLinkBytes.dropFirst(closedBefore)
        let beforeCut = cutAt > 0 ? (closed.first ?? 0) - openBefore : 0
        let total = closed.reduce(0, +) + transport.openLinkBytes - openBefore
        let offered = saved["offered_ns"] as? UInt64 ?? start
        return Outcome(
            startNanoseconds: start, seconds: Double(end - start) / 1e9, hashSeconds: Double(offered - start) / 1e9, senderCPUNanoseconds: senderCPU,
            senderMemory: memory, receiver: saved, cut: cut, sentBeforeCut: beforeCut, sentAfterCut: total - beforeCut,
            reconnection: redialer.reconnections.dropFirst(dropsBefore).first)
    }

    func stop() async {
        redialer.stop()
        stopWatching()
        await sender.disconnect(reason: "the benchmark is over")
        await sink.quit()
    }
}

/// Invites the child again whenever the link to it drops, at once and then every 50 ms until
/// it is connected (as `guessnum send` does after a drop), noting when each came back.
final class Redialer: Sendable {
    /// One drop of the link and the invitation that brought the child back.
    struct Reconnection: Sendable {
        var droppedAt: UInt64
        var backAt: UInt64?
        var attempts = 0
    }

    private let session: Session
    private let endpoint: Endpoint
    private let state = Mutex<(log: [Reconnection], stopped: Bool)>(([], false))

    init(session: Session, endpoint: Endpoint) {
        self.session = session
        self.endpoint = endpoint
    }

    var reconnections: [Reconnection] { state.withLock { $0.log } }

    func stop() {
        state.withLock { $0.stopped = true }
    }

    func dropped() {
        let index = state.withLock { state -> Int? in
            guard !state.stopped else { return nil }
            state.log.append(Reconnection(droppedAt: MonotonicClock.nanoseconds()))
            return state.log.count - 1
        }
        guard let index else { return }
        Task {
            for attempt in 1...200 {
                guard state.withLock({ state in
                    state.log[index].attempts = attempt
                    return !state.stopped
                }) else { return }
                if case .connected? = try? await session.invite(endpoint, timeout: .seconds(5)) {
                    state.withLock { $0.log[index].backAt = MonotonicClock.nanoseconds() }
                    return
                }
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
    }
}
