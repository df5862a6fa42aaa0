import ArgumentParser
import Foundation
import Histogram
import Multipeer
import MultipeerNIO

/// `guessnum-bench connect`: what one dead address costs a join. A guest invites a host found at
/// one address (clean), at a dead address followed by the host's (dead first), and at a refusing
/// address (a closed port) followed by the host's (refused first), in turn, over real
/// TCP (and TLS with `--over-tls`) on loopback, and reports each one's time from `invite` to
/// connected: a sentence on standard error, one JSON object on standard output. The dead address
/// is a listening socket whose accept queue is full: the kernel drops every SYN to it, as a
/// firewall or a gone machine does.
struct ConnectBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "connect", abstract: "Measure the cost of a dead address in front of a good one when joining.")

    @Option(help: "Joins of each kind, alternating.") var tries = 40
    // Not `--tls`: the parent command has that flag, and ArgumentParser would give it to the parent.
    @Flag(name: .customLong("over-tls"), help: "Host and guest over TLS 1.3, as guessnum runs.") var tls = false

    func run() async throws {
        let hostKey = PeerKey.generate()
        let host = Session(
            localPeer: try hostKey.peer(displayName: "bench host"),
            transport: TCPTransport(bindHost: "127.0.0.1", credentials: tls ? try TLSCredentials(key: hostKey) : nil))
        let port = try await host.startListening(port: 0)
        // A socket that listens with room for one waiting connection, filled: later SYNs are dropped.
        let (dead, deadPort) = try RawSocket.listen(backlog: 0)
        let filler = try RawSocket.connect(port: deadPort)
        let good = try Endpoint(host: "127.0.0.1", port: port)
        let unanswered = try Endpoint(host: "127.0.0.1", port: deadPort)
        // A port nothing listens on (bound for a moment, then closed): refused at once.
        let closedPort = try RawSocket.listen().1  // the socket goes (and closes) at once
        let refusing = try Endpoint(host: "127.0.0.1", port: closedPort)

        var clean = LatencyHistogram.latencies()
        var deadFirst = LatencyHistogram.latencies()
        var refusedFirst = LatencyHistogram.latencies()
        for index in 0..<(tries * 3 + 6) {
            let kind = index % 3
            let key = PeerKey.generate()
            let guest = Session(localPeer: try key.peer(displayName: "guest"), transport: TCPTransport(credentials: tls ? try TLSCredentials(key: key) : nil))
            let game = DiscoveredPeer(peer: host.localPeer, endpoints: [[good], [unanswered, good], [refusing, good]][kind], info: DiscoveryInfo())
            let start = MonotonicClock.nanoseconds()
            let outcome = try await guest.invite(game, timeout: .seconds(10))
            let elapsed = MonotonicClock.nanoseconds() - start
            guard outcome == .connected(host.localPeer) else { throw BenchFailure("join \(index) ended \(outcome)") }
            if index >= 6 {  // the first joins warm up both sides
                switch kind {
                case 0: clean.recordLatency(elapsed)
                case 1: deadFirst.recordLatency(elapsed)
                default: refusedFirst.recordLatency(elapsed)
                }
            }
            await guest.disconnect()
        }
        await host.disconnect()
        withExtendedLifetime((dead, filler)) {}

        func milliseconds(_ histogram: LatencyHistogram, _ percentile: Double) -> Double {
            (histogram.microseconds(atPercentile: percentile) ?? 0) / 1000
        }
        let result: [String: Double] = [
            "tries": Double(tries), "tls": tls ? 1 : 0,
            "clean_p50_ms": milliseconds(clean, 50), "clean_p99_ms": milliseconds(clean, 99),
            "dead_first_p50_ms": milliseconds(deadFirst, 50), "dead_first_p99_ms": milliseconds(deadFirst, 99),
            "refused_first_p50_ms": milliseconds(refusedFirst, 50), "refused_first_p99_ms": milliseconds(refusedFirst, 99),
        ]
        let extra = result["dead_first_p50_ms"]! - result["clean_p50_ms"]!
        // The sentence on standard error, the JSON object on standard output (for scripts/bench).
        let data = try JSONSerialization.data(withJSONObject: result.merging(["extra_p50_ms": extra]) { a, _ in a }, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
        FileHandle.standardError.write(Data((String(format: "%d joins each%@: clean p50 %.1f ms (p99 %.1f); dead address first p50 %.1f ms (p99 %.1f); a dead address costs %.1f ms; a refusing address first p50 %.1f ms (p99 %.1f)",
                         tries, tls ? " over TLS" : "", result["clean_p50_ms"]!, result["clean_p99_ms"]!,
                         result["dead_first_p50_ms"]!, result["dead_first_p99_ms"]!, extra,
                         result["refused_first_p50_ms"]!, result["refused_first_p99_ms"]!) + "\n").utf8))
    }
}
