import Foundation
import Multipeer
import MultipeerNIO

/// One stream's throughput on loopback over TLS 1.3, and its two baselines, one round each:
/// a ``Session`` in this process writes `bytes` through ``Session/openStream(named:to:)`` to a
/// session in a child process that reads them (``StreamSink``); the same bytes over a bare
/// swift-nio-ssl connection to a child that counts them (``RawTLSPipe``, ``RawTLSSink``); and
/// raw TCP by `iperf3` for a few seconds (``Iperf``). Rates run from the first write to the receiver's
/// last byte, on the system-wide monotonic clock both processes read.
final class StreamThroughput {
    let bytes: Int
    private let sender: Session
    private let sink: WorkerProcess
    private let sinkPeer: PeerID
    private let tlsSink: WorkerProcess
    private let tlsPort: Int
    private var rounds = 0
    /// Each sink's CPU time at its last report.
    private var sinkCPU: UInt64
    private var tlsSinkCPU: UInt64

    /// One transfer: its rate, and the CPU time each side spent per MiB.
    struct Transfer: Sendable {
        let mibPerSecond: Double
        let senderCPUMillisecondsPerMiB: Double
        let receiverCPUMillisecondsPerMiB: Double
    }

    private init(
        bytes: Int, sender: Session, sink: WorkerProcess, sinkPeer: PeerID, sinkCPU: UInt64, tlsSink: WorkerProcess, tlsPort: Int,
        tlsSinkCPU: UInt64
    ) {
        self.sinkCPU = sinkCPU
        self.tlsSinkCPU = tlsSinkCPU
        self.bytes = bytes
        self.sender = sender
        self.sink = sink
        self.sinkPeer = sinkPeer
        self.tlsSink = tlsSink
        self.tlsPort = tlsPort
    }

    /// Starts both sinks and connects this side's session to the session sink.
    static func start(bytes: Int, tuning: StreamTuning) async throws -> StreamThroughput {
        let sink = try WorkerProcess(subcommand: "stream-peer", arguments: ["--role", "sink"] + tuning.arguments)
        let tlsSink = try WorkerProcess(subcommand: "stream-peer", arguments: ["--role", "tls-sink"])
        let (sinkPort, sinkCPU) = try await port(of: sink)
        let (tlsPort, tlsSinkCPU) = try await port(of: tlsSink)
        let key = PeerKey.generate()
        let sender = Session(
            localPeer: try key.peer(displayName: "stream sender"), transport: TCPTransport(credentials: try TLSCredentials(key: key)),
            configuration: tuning.configuration)
        let outcome = try await sender.invite(try Endpoint(host: "127.0.0.1", port: sinkPort), timeout: .seconds(10))
        guard case .connected(let sinkPeer) = outcome else { throw BenchFailure("the stream sink answered \(outcome)") }
        return StreamThroughput(
            bytes: bytes, sender: sender, sink: sink, sinkPeer: sinkPeer, sinkCPU: sinkCPU, tlsSink: tlsSink, tlsPort: tlsPort,
            tlsSinkCPU: tlsSinkCPU)
    }

    /// One stream through the session.
    func session() async throws -> Transfer {
        rounds += 1
        let piece = StreamWriting.piece
        let cpu = ProcessCPU.nanoseconds()
        let start = MonotonicClock.nanoseconds()
        let stream = try await sender.openStream(named: "bulk \(rounds)", to: sinkPeer)
        var left = bytes
        while left > 0 {
            let count = min(left, piece.count)
            try await stream.write(count == piece.count ? piece : piece.prefix(count))
            left -= count
        }
        stream.finish()
        return try await transfer(reportedBy: sink, since: start, senderCPU: cpu, receiverCPU: &sinkCPU)
    }

    /// The same bytes through the raw TLS pipe.
    func rawTLS() async throws -> Transfer {
        let cpu = ProcessCPU.nanoseconds()
        let start = try await RawTLSPipe.send(bytes: bytes, pieceBytes: StreamWriting.writeBytes, to: tlsPort)
        return try await transfer(reportedBy: tlsSink, since: start, senderCPU: cpu, receiverCPU: &tlsSinkCPU)
    }

    /// MiB/s of raw TCP by iperf3, sending for `seconds`.
    func iperf(seconds: Int) throws -> Double {
        try Iperf.measure(seconds: seconds)
    }

    func stop() async {
        await sender.disconnect(reason: "the benchmark is over")
        await sink.quit()
        await tlsSink.quit()
    }

    /// The transfer `worker` reports; `receiverCPU` is its CPU time at its report before.
    private func transfer(reportedBy worker: WorkerProcess, since start: UInt64, senderCPU: UInt64, receiverCPU: inout UInt64) async throws -> Transfer {
        guard let line = await worker.nextLine(),
            let report = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let received = report["bytes"] as? Int, let last = report["last_ns"] as? UInt64, let cpu = report["cpu_ns"] as? UInt64
        else { throw BenchFailure("a sink stopped without reporting") }
        let sent = ProcessCPU.nanoseconds() - senderCPU
        guard received == bytes else { throw BenchFailure("a sink received \(received) bytes of \(bytes)") }
        let mebibytes = Double(received) / 1_048_576
        defer { receiverCPU = cpu }
        return Transfer(
            mibPerSecond: mebibytes / (Double(last - start) / 1e9), senderCPUMillisecondsPerMiB: Double(sent) / 1e6 / mebibytes,
            receiverCPUMillisecondsPerMiB: Double(cpu - receiverCPU) / 1e6 / mebibytes)
    }

    /// The port a sink listens on, and its CPU time then.
    private static func port(of worker: WorkerProcess) async throws -> (Int, UInt64) {
        guard let line = await worker.nextLine(),
            let report = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], let port = report["port"] as? Int,
            let cpu = report["cpu_ns"] as? UInt64
        else { throw BenchFailure("a stream sink did not start") }
        return (port, cpu)
    }
}
