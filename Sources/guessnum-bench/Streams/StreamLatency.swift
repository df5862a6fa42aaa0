import Foundation
import Multipeer

/// The game's guess→verdict round trip on one TLS link, idle and while a stream saturates the
/// same link: a real game host (``BenchHost``: a ``Session`` and a room of guess-the-number, as
/// `guessnum host` sets them up, with the guess throttle lifted) in this process, and one real
/// guest (``StreamGuest``, a ``Session`` over TLS) in a child process that guesses every few
/// milliseconds. The stream runs either way: host → guest (it shares the host's side of the
/// link with the verdicts) or guest → host (with the guesses).
final class StreamLatency {
    enum Phase: String, CaseIterable, Sendable {
        case idle
        case hostToGuest = "host→guest"
        case guestToHost = "guest→host"
    }

    struct Probe: Sendable {
        let phase: Phase
        let count: Int
        let p50: Double
        let p99: Double
        let p999: Double
        let max: Double
        /// The stream's rate during the probe, MiB/s (0 when idle).
        let streamMiBPerSecond: Double

        var json: [String: Any] {
            ["phase": phase.rawValue, "count": count, "rtt_p50_us": p50, "rtt_p99_us": p99, "rtt_p999_us": p999, "rtt_max_us": max,
             "stream_mib_s": streamMiBPerSecond]
        }
    }

    private let host: BenchHost
    private let guest: WorkerProcess
    private let guestPeer: PeerID
    private let drain: Task<Void, Never>
    private var streams = 0

    private init(host: BenchHost, guest: WorkerProcess, guestPeer: PeerID, drain: Task<Void, Never>) {
        self.host = host
        self.guest = guest
        self.guestPeer = guestPeer
        self.drain = drain
    }

    static func start() async throws -> StreamLatency {
        let host = try await BenchHost.start(mode: .closed, maximumPlayers: 8, tls: true, carriesStreams: true)
        // The host reads every stream the guest opens (the game itself has no use for them).
        let opened = host.session.events.stream(.streamOpened)
        let drain = Task {
            for await stream in opened {
                Task {
                    do {
                        for try await _ in stream.chunks {}
                    } catch {
                        FileHandle.standardError.write(Data("stream \(stream.name) ended: \(error)\n".utf8))
                    }
                }
            }
        }
        let guest = try WorkerProcess(subcommand: "stream-peer", arguments: ["--role", "guest", "--host-port", String(host.port)])
        guard let line = await guest.nextLine(), line.contains("welcomed") else { throw BenchFailure("the stream guest was not welcomed") }
        guard let guestPeer = host.session.connectedPeers.first else { throw BenchFailure("the stream guest is not connected") }
        return StreamLatency(host: host, guest: guest, guestPeer: guestPeer, drain: drain)
    }

    /// One probe of `seconds`, a guess every `intervalMilliseconds`, in `phase`.
    /// With `pace`, the stream goes no faster than that many MiB/s, in writes of `writeKiB`.
    func probe(_ phase: Phase, seconds: Double, intervalMilliseconds: Int, pace: Double? = nil, writeKiB: Int? = nil) async throws -> Probe {
        let stop = StopFlag()
        var writer: Task<Int, any Error>?
        if phase == .hostToGuest {
            streams += 1
            let (session, peer, name) = (host.session, guestPeer, "host bulk \(streams)")
            writer = Task { try await StreamWriting.writeUntil(stop, session: session, named: name, to: peer, mebibytesPerSecond: pace, writeKiB: writeKiB) }
        }
        guest.send("probe \(seconds) \(intervalMilliseconds) \(phase == .guestToHost ? "write" : "none")" + (pace.map { " \($0)" + (writeKiB.map { " \($0)" } ?? "") } ?? ""))
        guard let line = await guest.nextLine(),
            let report = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let count = report["count"] as? Int, let elapsed = report["seconds"] as? Double
        else { throw BenchFailure("the stream guest stopped without reporting") }
        stop.raise()
        let hostWritten = try await writer?.value ?? 0
        let streamed = phase == .hostToGuest ? hostWritten : (report["stream_written_bytes"] as? Int ?? 0)
        func value(_ key: String) -> Double { report[key] as? Double ?? 0 }
        return Probe(
            phase: phase, count: count, p50: value("rtt_p50_us"), p99: value("rtt_p99_us"), p999: value("rtt_p999_us"),
            max: value("rtt_max_us"), streamMiBPerSecond: Double(streamed) / 1_048_576 / elapsed)
    }

    func stop() async {
        await guest.quit()
        drain.cancel()
        await host.stop()
    }
}
