import ArgumentParser
import Foundation
import Histogram
import Multipeer
import MultipeerNIO
import MultipeerPOSIX

/// `guessnum-bench join-host`: a session that takes every invitation, listening on all
/// addresses over TLS 1.3 as `guessnum host` does; prints its peer (JSON) on one line, then
/// serves until its standard input ends. The other side of `join-time`, on another machine of
/// the test LAN.
struct JoinHost: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "join-host", abstract: "Take joins for join-time until standard input ends.")

    @Option(help: "The port to listen on.") var port = 4600

    func run() async throws {
        let key = PeerKey.generate()
        let host = Session(localPeer: try key.peer(displayName: "bench host"), transport: TCPTransport(credentials: try TLSCredentials(key: key)))
        _ = try await host.startListening(port: port)
        FileHandle.standardOutput.write(try JSONEncoder().encode(host.localPeer) + Data("\n".utf8))
        await onOwnThread { while readLine() != nil {} }
        await host.disconnect()
    }
}

/// `guessnum-bench join-time`: how long a join takes — `invite` to connected, a new guest each
/// time over TLS 1.3 (TCP, the handshake, the invitation and its answer) — against a
/// `join-host` at `--address`, the peer it printed given as `--host-peer`. One JSON object.
struct JoinTimeBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "join-time", abstract: "Time joins against a join-host.")

    @Option(help: "The join-host's address, HOST:PORT.") var address: String
    @Option(help: "The peer join-host printed (JSON).") var hostPeer: String
    @Option(help: "Joins timed (after 5 not timed).") var tries = 100

    func run() async throws {
        let host = try JSONDecoder().decode(PeerID.self, from: Data(hostPeer.utf8))
        let game = DiscoveredPeer(peer: host, endpoints: [try Endpoint(parsing: address)], info: DiscoveryInfo())
        var joins = LatencyHistogram.latencies()
        for index in 0..<(tries + 5) {
            let key = PeerKey.generate()
            let guest = Session(localPeer: try key.peer(displayName: "guest"), transport: TCPTransport(credentials: try TLSCredentials(key: key)))
            let start = MonotonicClock.nanoseconds()
            let outcome = try await guest.invite(game, timeout: .seconds(10))
            let elapsed = MonotonicClock.nanoseconds() - start
            guard outcome == .connected(host) else { throw BenchFailure("join \(index) ended \(outcome)") }
            if index >= 5 { joins.recordLatency(elapsed) }
            await guest.disconnect()
        }
        let p50 = (joins.microseconds(atPercentile: 50) ?? 0) / 1000
        let p90 = (joins.microseconds(atPercentile: 90) ?? 0) / 1000
        print(String(format: #"{"address":"%@","tries":%d,"join_p50_ms":%.3f,"join_p90_ms":%.3f}"#, address, tries, p50, p90))
    }
}
