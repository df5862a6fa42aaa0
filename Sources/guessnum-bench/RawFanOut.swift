import Foundation
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

/// The worker's side of the raw fan-out: N plain NIO connections that only count bytes, so
/// the raw baseline is read by the same machinery as the guests' broadcasts.
final class RawSinks: Sendable {
    private let progress: Mutex<(received: Int, crossings: [UInt64])>
    /// Byte counts to time: the end of the back-to-back part, then of each separate round.
    let thresholds: [Int]

    init(thresholds: [Int]) {
        self.thresholds = thresholds
        progress = Mutex((0, []))
    }

    /// Connects `count` sinks to 127.0.0.1:`port`.
    func connect(count: Int, port: Int, group: any EventLoopGroup) async throws -> [any Channel] {
        var channels: [any Channel] = []
        for _ in 0..<count {
            let channel = try await ClientBootstrap(group: group)
                .channelOption(.tcpOption(.tcp_nodelay), value: 1)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Counter(sinks: self)) }
                }
                .connect(host: "127.0.0.1", port: port).get()
            channels.append(channel)
        }
        return channels
    }

    /// When each threshold was reached, so far.
    var crossings: [UInt64] { progress.withLock { $0.crossings } }

    fileprivate func add(_ count: Int) {
        let now = MonotonicClock.nanoseconds()
        progress.withLock { progress in
            progress.received += count
            while progress.crossings.count < thresholds.count, progress.received >= thresholds[progress.crossings.count] {
                progress.crossings.append(now)
            }
        }
    }

    private final class Counter: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let sinks: RawSinks
        init(sinks: RawSinks) { self.sinks = sinks }
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            sinks.add(Self.unwrapInboundIn(data).readableBytes)
        }
    }
}
