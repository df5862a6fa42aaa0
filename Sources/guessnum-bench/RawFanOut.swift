import Foundation
import Multipeer
import NIOCore
import NIOPosix
import Synchronization

/// The machine's limit for a broadcast: the same frame written with plain blocking `write`
/// calls to every one of N loopback sockets, round after round, from one thread.
enum RawFanOut {
    /// Accepts `count` connections on `listener`, writes `rounds` copies of `frame` to each
    /// back to back (round-robin), then `separateRounds` more, one every `gap`; returns the
    /// start time of the back-to-back part and of each separate round.
    static func write(_ frame: [UInt8], rounds: Int, separateRounds: Int, gap: Duration, to count: Int, listener: RawSocket) throws -> [UInt64] {
        var sockets: [RawSocket] = []
        sockets.reserveCapacity(count)
        for _ in 0..<count { sockets.append(try listener.accept()) }
        return sockets.withUnsafeBufferPointer { sockets in
            frame.withUnsafeBytes { bytes in
                var starts = [MonotonicClock.nanoseconds()]
                for _ in 0..<rounds {
                    for socket in sockets { _ = socket.writeAll(bytes) }
                }
                for _ in 0..<separateRounds {
                    Thread.sleep(forTimeInterval: Double(gap.components.attoseconds) / 1e18 + Double(gap.components.seconds))
                    starts.append(MonotonicClock.nanoseconds())
                    for socket in sockets { _ = socket.writeAll(bytes) }
                }
                return starts
            }
        }
    }
}

/// The worker's side of the raw fan-out: one receiver per raw socket, reading with the same
/// transport and doing the same work per frame as a simulated guest does with a broadcast
/// (``SimulatedGuest/record(broadcast:in:at:)``), so the two fan-outs differ only in the
/// sending host.
final class RawFrameSink: ConnectionHandler, Sendable {
    let recorder: WorkerRecorder
    init(recorder: WorkerRecorder) { self.recorder = recorder }

    func connectionDidOpen(_ connection: any Connection) {}

    func connection(_ connection: any Connection, didReceive frame: Frame) {
        guard case .data(_, let payload) = frame else { return }
        SimulatedGuest.record(broadcast: payload, in: recorder, at: MonotonicClock.nanoseconds())
    }

    func connection(_ connection: any Connection, didCloseWith error: MultipeerError?) {}
}
