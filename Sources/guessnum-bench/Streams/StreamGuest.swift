import Foundation
import GuessnumGame
import Multipeer
import MultipeerNIO
import Rooms
import Synchronization

/// The `guest` role: a game guest as `guessnum join` runs one — a ``Session`` over TLS 1.3
/// that joins the host's game — which times its guesses from sending to the verdict's
/// `dataReceived` post (HdrHistogram), reads every stream the host opens to it, and on
/// command writes a stream to the host over the same link while it guesses.
///
/// Commands: `probe SECONDS INTERVAL_MS none|write [MIB_PER_S [WRITE_KIB]]` guesses once every INTERVAL_MS (the next
/// guess waits for the last verdict) for SECONDS and reports; with `write` a stream to the host
/// runs meanwhile, as fast as the link and the host's reading let it. `quit` leaves.
enum StreamGuest {
    static func run(hostPort: Int) async throws {
        let key = PeerKey.generate()
        let session = Session(
            localPeer: try key.peer(displayName: "stream guest"), transport: TCPTransport(credentials: try TLSCredentials(key: key)))
        let verdicts = VerdictClock()
        let observation = session.events.observe(.dataReceived) { received in
            switch received.messageType {
            case JudgedGuess.messageType?, GameErrorMessage.messageType?: verdicts.arrived(at: MonotonicClock.nanoseconds())
            case WelcomeMessage.messageType?: verdicts.welcome()
            default: break
            }
        }
        let readBytes = Counter()
        let opened = session.events.stream(.streamOpened)
        let reader = Task {
            for await stream in opened {
                do {
                    for try await chunk in stream.chunks { readBytes.add(chunk.count) }
                } catch {
                    FileHandle.standardError.write(Data("stream \(stream.name) ended: \(error)\n".utf8))
                }
            }
        }
        let outcome = try await session.invite(try Endpoint(host: "127.0.0.1", port: hostPort), timeout: .seconds(10))
        guard case .connected(let host) = outcome else { throw BenchFailure("the host answered \(outcome)") }
        await verdicts.waitForWelcome()
        LineChannel.emit(#"{"event":"welcomed"}"#)

        var commands = LineChannel.lines(from: STDIN_FILENO).makeAsyncIterator()
        var random = SplitMix64(seed: 26)
        var streams = 0
        while let command = await commands.next() {
            let words = command.split(separator: " ")
            guard words.first == "probe", words.count >= 4, let seconds = Double(words[1]), let interval = UInt64(words[2]) else { break }
            let stop = StopFlag()
            var writer: Task<Int, any Error>?
            if words[3] == "write" {
                streams += 1
                let name = "guest bulk \(streams)"
                let pace = words.count > 4 ? Double(words[4]) : nil
                let writeKiB = words.count > 5 ? Int(words[5]) : nil
                writer = Task {
                    try await StreamWriting.writeUntil(stop, session: session, named: name, to: host, mebibytesPerSecond: pace, writeKiB: writeKiB)
                }
            }
            let readBefore = readBytes.value
            var roundTrips = LatencyHistogram.latencies()
            let start = MonotonicClock.nanoseconds()
            let end = start + UInt64(seconds * 1e9)
            while MonotonicClock.nanoseconds() < end {
                let sent = MonotonicClock.nanoseconds()
                verdicts.expect()
                try session.send(Data("{\"guess\":\(random.next() % BenchGame.rangeSize + 1)}".utf8), messageType: GuessMessage.messageType, to: [host])
                let answered = await verdicts.next()
                roundTrips.recordLatency(answered - sent)
                let next = sent + interval * 1_000_000
                let now = MonotonicClock.nanoseconds()
                if next > now { try await Task.sleep(for: .nanoseconds(next - now)) }
            }
            let elapsed = Double(MonotonicClock.nanoseconds() - start) / 1e9
            stop.raise()
            let written = try await writer?.value ?? 0
            func us(_ percentile: Double) -> Double { roundTrips.microseconds(atPercentile: percentile) ?? 0 }
            let report: [String: Any] = [
                "event": "probed", "count": Int(roundTrips.totalCount), "seconds": elapsed,
                "rtt_p50_us": us(50), "rtt_p99_us": us(99), "rtt_p999_us": us(99.9), "rtt_max_us": Double(roundTrips.max) / 1000,
                "stream_read_bytes": readBytes.value - readBefore, "stream_written_bytes": written,
            ]
            LineChannel.emit(String(decoding: try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys]), as: UTF8.self))
        }
        observation.cancel()
        reader.cancel()
        await session.disconnect(reason: "the benchmark is over")
    }
}

/// When the verdict for the guess in flight arrived, handed from the session's post (on its
/// event loop) to the guessing task.
final class VerdictClock: Sendable {
    private struct State {
        var arrivedAt: UInt64?
        var waiter: CheckedContinuation<UInt64, Never>?
        var welcomed = false
        var welcomeWaiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// A guess is about to leave: forget any earlier verdict.
    func expect() {
        state.withLock { $0.arrivedAt = nil }
    }

    func arrived(at now: UInt64) {
        let waiter = state.withLock { state -> CheckedContinuation<UInt64, Never>? in
            defer { state.waiter = nil }
            if state.waiter == nil { state.arrivedAt = now }
            return state.waiter
        }
        waiter?.resume(returning: now)
    }

    /// The moment the verdict arrived, once it has.
    func next() async -> UInt64 {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> UInt64? in
                if let arrived = state.arrivedAt { return arrived }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    func welcome() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.welcomed = true
            defer { state.welcomeWaiter = nil }
            return state.welcomeWaiter
        }
        waiter?.resume()
    }

    func waitForWelcome() async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                if state.welcomed { return true }
                state.welcomeWaiter = continuation
                return false
            }
            if ready { continuation.resume() }
        }
    }
}

/// A flag one task raises and another reads.
final class StopFlag: Sendable {
    private let raised = Atomic<Bool>(false)
    func raise() { raised.store(true, ordering: .relaxed) }
    var isRaised: Bool { raised.load(ordering: .relaxed) }
}

/// A byte count several threads add to.
final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    func add(_ amount: Int) { count.wrappingAdd(amount, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}

/// Writing a stream for as long as a measurement runs.
enum StreamWriting {
    /// The size of each `write` the benchmark makes (the session cuts it into chunks).
    static let writeBytes = 256 * 1024
    static let piece = Data(StreamPayload.piece(writeBytes))

    /// Opens a stream named `name` to `peer` and writes to it until `stop` is raised, then
    /// finishes it; the bytes written.
    /// With `mebibytesPerSecond`, no faster than that (it sleeps between writes), so that a probe
    /// can tell what a busy link costs from what busy cores cost.
    static func writeUntil(
        _ stop: StopFlag, session: Session, named name: String, to peer: PeerID, mebibytesPerSecond: Double? = nil,
        writeKiB: Int? = nil
    ) async throws -> Int {
        let stream = try await session.openStream(named: name, to: peer)
        let piece = writeKiB.map { Data(StreamPayload.piece($0 * 1024)) } ?? Self.piece
        var written = 0
        let start = MonotonicClock.nanoseconds()
        while !stop.isRaised {
            try await stream.write(piece)
            written += piece.count
            if let mebibytesPerSecond {
                let due = start + UInt64(Double(written) / 1_048_576 / mebibytesPerSecond * 1e9)
                let now = MonotonicClock.nanoseconds()
                if due > now { try await Task.sleep(for: .nanoseconds(due - now)) }
            }
        }
        stream.finish()
        return written
    }
}
