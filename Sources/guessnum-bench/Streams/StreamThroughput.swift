import Foundation
import Multipeer
import MultipeerNIO

/// One stream's throughput on loopback over TLS 1.3, and its two baselines, one round each:
/// a ``Session`` in this process writes `bytes` through ``Session/openStream(named:to:)`` to a
/// session in a child process that reads them (``StreamSink``); the same bytes over a bare
/// swift-nio-ssl connection to a child that counts them (``RawTLSPipe``, ``RawTLSSink``); and
/// the same bytes by `iperf3` (``Iperf``). Rates run from the first write to the receiver's
/// last byte, on the system-wide monotonic clock both processes read.
final class StreamThroughput {
    let bytes: Int
    private let sender: Session
    private let sink: WorkerProcess
    private let sinkPeer: PeerID
    private let tlsSink: WorkerProcess
    private let tlsPort: Int
    private var rounds = 0

    private init(bytes: Int, sender: Session, sink: WorkerProcess, sinkPeer: PeerID, tlsSink: WorkerProcess, tlsPort: Int) {
        self.bytes = bytes
        self.sender = sender
        self.sink = sink
        self.sinkPeer = sinkPeer
        self.tlsSink = tlsSink
        self.tlsPort = tlsPort
    }

    /// Starts both sinks and connects this side's session to the session sink.
    static func start(bytes: Int) async throws -> StreamThroughput {
        let sink = try WorkerProcess(subcommand: "stream-peer", arguments: ["--role", "sink"])
        let tlsSink = try WorkerProcess(subcommand: "stream-peer", arguments: ["--role", "tls-sink"])
        let sinkPort = try await port(of: sink)
        let tlsPort = try await port(of: tlsSink)
        let key = PeerKey.generate()
        let sender = Session(localPeer: try key.peer(displayName: "stream sender"), transport: TCPTransport(credentials: try TLSCredentials(key: key)))
        let outcome = try await sender.invite(try Endpoint(host: "127.0.0.1", port: sinkPort), timeout: .seconds(10))
        guard case .connected(let sinkPeer) = outcome else { throw BenchFailure("the stream sink answered \(outcome)") }
        return StreamThroughput(bytes: bytes, sender: sender, sink: sink, sinkPeer: sinkPeer, tlsSink: tlsSink, tlsPort: tlsPort)
    }

    /// MiB/s of one stream through the session.
    func session() async throws -> Double {
        rounds += 1
        let piece = StreamWriting.piece
        let start = MonotonicClock.nanoseconds()
        let stream = try await sender.openStream(named: "bulk \(rounds)", to: sinkPeer)
        var left = bytes
        while left > 0 {
            let count = min(left, piece.count)
            try await stream.write(count == piece.count ? piece : piece.prefix(count))
            left -= count
        }
        stream.finish()
        return try await rate(reportedBy: sink, since: start)
    }

    /// MiB/s of the raw TLS pipe.
    func rawTLS() async throws -> Double {
        let start = try await RawTLSPipe.send(bytes: bytes, pieceBytes: StreamWriting.writeBytes, to: tlsPort)
        return try await rate(reportedBy: tlsSink, since: start)
    }

    /// MiB/s of raw TCP by iperf3.
    func iperf() throws -> Double {
        try Iperf.measure(bytes: bytes)
    }

    func stop() async {
        await sender.disconnect(reason: "the benchmark is over")
        await sink.quit()
        await tlsSink.quit()
    }

    private func rate(reportedBy worker: WorkerProcess, since start: UInt64) async throws -> Double {
        guard let line = await worker.nextLine(),
            let report = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let received = report["bytes"] as? Int, let last = report["last_ns"] as? UInt64
        else { throw BenchFailure("a sink stopped without reporting") }
        guard received == bytes else { throw BenchFailure("a sink received \(received) bytes of \(bytes)") }
        return Double(received) / 1_048_576 / (Double(last - start) / 1e9)
    }

    private static func port(of worker: WorkerProcess) async throws -> Int {
        guard let line = await worker.nextLine(),
            let report = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], let port = report["port"] as? Int
        else { throw BenchFailure("a stream sink did not start") }
        return port
    }
}
