import Foundation
import Multipeer
import MultipeerNIO

/// The `sink` role: a ``Session`` over TLS, set up as `guessnum` sets one up, that reads every
/// stream it is sent to its end, one at a time, and reports each one's ``ByteTally``.
enum StreamSink {
    static func run(configuration: SessionConfiguration) async throws {
        let key = PeerKey.generate()
        let session = Session(
            localPeer: try key.peer(displayName: "stream sink"),
            transport: TCPTransport(bindHost: "127.0.0.1", credentials: try TLSCredentials(key: key)), configuration: configuration)
        let opened = session.events.stream(.streamOpened)
        let port = try await session.startListening(port: 0)
        let reader = Task {
            for await stream in opened {
                var tally = ByteTally()
                do {
                    for try await chunk in stream.chunks { tally.add(chunk.count, at: MonotonicClock.nanoseconds()) }
                } catch {
                    FileHandle.standardError.write(Data("stream \(stream.name) ended: \(error)\n".utf8))
                }
                LineChannel.emit(tally.json)
            }
        }
        LineChannel.emit(#"{"event":"listening","cpu_ns":\#(ProcessCPU.nanoseconds()),"port":\#(port)}"#)
        var commands = LineChannel.lines(from: STDIN_FILENO).makeAsyncIterator()
        _ = await commands.next()  // "quit" or end of input
        reader.cancel()
        await session.disconnect(reason: "the benchmark is over")
    }
}
