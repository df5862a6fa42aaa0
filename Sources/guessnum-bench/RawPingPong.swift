import ArgumentParser
import Foundation

/// The machine's limit for a round trip: a raw TCP ping-pong on loopback with the same sizes
/// as a guess and its verdict, with blocking sockets, between this process and an echo server
/// in a child process (``RawEcho``), as between a guest and the host (and as `sockperf` does).
enum RawPingPong {
    struct Result: Sendable {
        var roundTrips: LatencyHistogram
    }

    /// Measures `duration` of back-to-back round trips after a warm-up of 2,000, against an
    /// echo server listening on `port`.
    static func measure(port: Int, requestBytes: Int, replyBytes: Int, duration: Duration) throws -> Result {
        let client = try RawSocket.connect(port: port)
        let request = [UInt8](repeating: 0x17, count: requestBytes)
        var reply = [UInt8](repeating: 0, count: replyBytes)
        var histogram = LatencyHistogram.latencies()
        func roundTrip() -> UInt64? {
            let start = MonotonicClock.nanoseconds()
            guard request.withUnsafeBytes({ client.writeAll($0) }), reply.withUnsafeMutableBytes({ client.readExactly($0) }) else { return nil }
            return MonotonicClock.nanoseconds() - start
        }
        for _ in 0..<2_000 { _ = roundTrip() }
        let end = MonotonicClock.nanoseconds() + UInt64(duration.components.seconds) * 1_000_000_000
            + UInt64(duration.components.attoseconds / 1_000_000_000)
        while MonotonicClock.nanoseconds() < end, let rtt = roundTrip() {
            histogram.recordLatency(rtt)
        }
        return Result(roundTrips: histogram)
    }
}

/// `guessnum-bench raw-echo`: the raw baseline's server. It prints the port it listens on, then
/// answers each `--request-bytes` read with `--reply-bytes` until the client leaves.
struct RawEcho: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "raw-echo", abstract: "The raw TCP baseline's echo server (started by guessnum-bench itself).", shouldDisplay: false)

    @Option var requestBytes: Int
    @Option var replyBytes: Int

    func run() throws {
        let (listener, port) = try RawSocket.listen()
        LineChannel.emit(#"{"event":"listening","port":\#(port)}"#)
        let peer = try listener.accept()
        var request = [UInt8](repeating: 0, count: requestBytes)
        let reply = [UInt8](repeating: 0x2A, count: replyBytes)
        while request.withUnsafeMutableBytes({ peer.readExactly($0) }) {
            guard reply.withUnsafeBytes({ peer.writeAll($0) }) else { break }
        }
    }
}
