import Foundation
import Multipeer
import MultipeerNIO
import Synchronization

/// The `resource-sink` role: a ``Session`` over TLS, set up as `guessnum receive` sets one up,
/// that accepts every resource it is offered into `inbox` and reports each one saved.
///
/// Commands: `arm CUT` before each transfer starts a ``MemoryWatch`` (the baseline) and, for
/// CUT above 0, cuts the link (``CuttableTransport/cut()``) once the receiver holds more than
/// CUT of the file; it answers `armed`. A `cut` report says how much it held then; the
/// `saved` report (or `failed`) ends the transfer with this process's memory growth, CPU
/// time and, after a cut, what it held when the sender was connected again. `quit` leaves.
enum ResourceSink {
    static func run(inbox: URL) async throws {
        let key = PeerKey.generate()
        let transport = CuttableTransport(base: TCPTransport(bindHost: "127.0.0.1", credentials: try TLSCredentials(key: key)))
        let session = Session(localPeer: try key.peer(displayName: "resource sink"), transport: transport, configuration: .bulkTransfer)
        let plan = Mutex<(cut: Double, watch: MemoryWatch?)>((0, nil))
        let current = Mutex<IncomingResource?>(nil)
        let heldWhenBack = Mutex<Int64?>(nil)
        let reconnections = session.events.observe(.stateChanged) { change in
            guard change.state == .connected, let resource = current.withLock({ $0 }) else { return }
            heldWhenBack.withLock { $0 = resource.progress.completedBytes }
        }
        let offers = session.events.stream(.resourceOffered)
        let port = try await session.startListening(port: 0)
        let receiver = Task {
            for await offer in offers {
                let offered = MonotonicClock.nanoseconds()
                let (cut, watch) = plan.withLock { ($0.cut, $0.watch) }
                let cpu = ProcessCPU.nanoseconds()
                let systemCPU = ProcessCPU.systemNanoseconds()
                heldWhenBack.withLock { $0 = nil }
                var report: [String: Any] = ["offered_ns": offered, "size": offer.size]
                do {
                    let resource = try await offer.accept(into: inbox)
                    current.withLock { $0 = resource }
                    let cutter = cut > 0 ? Task { await cutLink(of: resource, at: cut, transport: transport) } : nil
                    let timeline = Task { await Self.timeline(of: resource) }
                    let saved = try await resource.outcome()
                    for (field, value) in await timeline.value { report[field] = value }
                    if let held = await cutter?.value { report["held_at_cut"] = held }
                    report["event"] = "saved"
                    report["path"] = saved.path
                    report["bytes"] = (try? FileManager.default.attributesOfItem(atPath: saved.path)[.size] as? Int) ?? -1
                } catch {
                    report["event"] = "failed"
                    report["error"] = "\(error)"
                }
                current.withLock { $0 = nil }
                report["saved_ns"] = MonotonicClock.nanoseconds()
                report["cpu_ns"] = ProcessCPU.nanoseconds() - cpu
                report["system_cpu_ns"] = ProcessCPU.systemNanoseconds() - systemCPU
                if let held = heldWhenBack.withLock({ $0 }) { report["held_when_back"] = held }
                for (field, value) in watch?.stop().json ?? [:] { report[field] = value }
                emit(report)
            }
        }
        LineChannel.emit(#"{"event":"listening","port":\#(port)}"#)
        for await command in LineChannel.lines(from: STDIN_FILENO) {
            let words = command.split(separator: " ")
            guard words.first == "arm", words.count == 2, let cut = Double(words[1]) else { break }
            plan.withLock { $0 = (cut, MemoryWatch()) }
            LineChannel.emit(#"{"event":"armed"}"#)
        }
        reconnections.cancel()
        receiver.cancel()
        await session.disconnect(reason: "the benchmark is over")
    }

    /// Cuts the link once `resource` holds more than `fraction` of its bytes; what it held then.
    private static func cutLink(of resource: IncomingResource, at fraction: Double, transport: CuttableTransport) async -> Int64? {
        let threshold = Int64(Double(resource.totalBytes) * fraction)
        for await step in resource.progressUpdates where step.completedBytes > threshold {
            transport.cut()
            emit(["event": "cut", "held": step.completedBytes, "cut_ns": MonotonicClock.nanoseconds()])
            return step.completedBytes
        }
        return nil
    }

    /// When the first bytes were written to the partial file and when the last were (the
    /// check, `fsync` and link into place come after).
    private static func timeline(of resource: IncomingResource) async -> [String: UInt64] {
        var times: [String: UInt64] = [:]
        for await step in resource.progressUpdates {
            if step.completedBytes > 0, times["first_bytes_ns"] == nil { times["first_bytes_ns"] = MonotonicClock.nanoseconds() }
            if step.completedBytes == step.totalBytes { times["all_bytes_ns"] = MonotonicClock.nanoseconds() }
        }
        return times
    }

    private static func emit(_ report: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: report, options: [.sortedKeys]) else { return }
        LineChannel.emit(String(decoding: data, as: UTF8.self))
    }
}
