import Multipeer
import NIOCore

extension TCPTransport {
    /// How many connections one event-loop task writes to before letting the loop read again.
    /// A write to loopback costs around 10 µs of the loop's time (the receiving side's TCP work
    /// runs in it too), so a chunk holds the loop for well under a millisecond.
    static let broadcastChunk = 64
    /// The pause between two chunks of one broadcast. Measured on 2 cores with 1,000 guests
    /// (BENCHMARKS.md): without a pause the guesses' p99 round trip was 13 ms, with 200 µs
    /// 4.6–4.8 ms; chunks of 256 delivered a broadcast faster but pushed p99 to 8–9 ms.
    static let broadcastChunkSpacing: TimeAmount = .microseconds(200)

    /// Queues `frame` on every connection, sharing one copy of its bytes, and writes them out
    /// from each event loop in chunks of ``broadcastChunk`` connections with a short pause
    /// between chunks, so that a broadcast to thousands never holds a loop (or, on a small
    /// machine, the CPU) for long: guesses arriving meanwhile are read and answered between
    /// chunks. Each connection's frames stay in the order they were queued, and a frame sent to
    /// a connection while its broadcast waits for its chunk takes the broadcast along at once.
    public func broadcast(_ frame: EncodedFrame, to connections: [any Connection]) {
        let buffer = ByteBuffer(bytes: frame.bytes)
        var byLoop: [ObjectIdentifier: (loop: any EventLoop, connections: [TCPConnection])] = [:]
        for connection in connections {
            guard let tcp = connection as? TCPConnection else {
                connection.send(frame)
                continue
            }
            guard tcp.enqueue(buffer) else { continue }  // a drain is scheduled already
            let loop = tcp.channel.eventLoop
            byLoop[ObjectIdentifier(loop), default: (loop, [])].connections.append(tcp)
        }
        for (loop, pending) in byLoop.values {
            loop.execute { Self.drain(pending, from: 0, on: loop) }
        }
    }

    private static func drain(_ connections: [TCPConnection], from start: Int, on loop: any EventLoop) {
        let end = min(start + broadcastChunk, connections.count)
        for index in start..<end { connections[index].drain() }
        if end < connections.count {
            loop.scheduleTask(in: broadcastChunkSpacing) { drain(connections, from: end, on: loop) }
        }
    }
}
