import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// The machine's limit for a broadcast: the same frame written with plain blocking `write`
/// calls to every one of N loopback sockets, round after round, from one thread.
enum RawFanOut {
    /// Accepts `count` connections on `listener`, then writes `rounds` copies of `frame` to each
    /// (round-robin); returns when the last write returned, with the start time.
    static func write(_ frame: [UInt8], rounds: Int, to count: Int, listener: RawSocket, accepted: @Sendable () -> Void) throws -> UInt64 {
        var sockets: [RawSocket] = []
        sockets.reserveCapacity(count)
        for _ in 0..<count { sockets.append(try listener.accept()) }
        accepted()
        return sockets.withUnsafeBufferPointer { sockets in
            frame.withUnsafeBytes { bytes in
                let start = MonotonicClock.nanoseconds()
                for _ in 0..<rounds {
                    for socket in sockets { _ = socket.writeAll(bytes) }
                }
                return start
            }
        }
    }
}

/// The worker's side of the raw fan-out: N plain NIO connections that only count bytes, so
/// the raw baseline is read by the same machinery as the guests' broadcasts.
final class RawSinks: Sendable {
    private let received = Atomic(0)
    private let finishedAt = Atomic<UInt64>(0)
    let expectedBytes: Int

    init(expectedBytes: Int) { self.expectedBytes = expectedBytes }

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

    /// When the last expected byte arrived (0 until then).
    var completedAt: UInt64 { finishedAt.load(ordering: .acquiring) }

    fileprivate func add(_ count: Int) {
        let total = received.add(count, ordering: .relaxed).newValue
        if total >= expectedBytes, finishedAt.load(ordering: .relaxed) == 0 {
            finishedAt.store(MonotonicClock.nanoseconds(), ordering: .releasing)
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
