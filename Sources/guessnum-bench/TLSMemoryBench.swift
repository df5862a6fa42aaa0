import ArgumentParser
import Foundation
import MultipeerNIO
import NIOCore
import NIOPosix

/// `guessnum-bench tls-memory`: what a connection costs a server in resident memory with
/// swift-nio alone and over swift-nio-ssl (``BareChannel``: the same library, key kind, TLS 1.3,
/// options as a session's link; an echo handler above, nothing of guessnum's), measured as
/// `guessnum-bench` measures the game host's memory per guest: resident memory with every
/// connection open and answered once, less before, divided by the connections. The clients
/// run in a child process. One JSON object.
struct TLSMemoryBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tls-memory", abstract: "Measure a server's resident memory per connection, plaintext and over TLS, with swift-nio alone.")

    @Option(help: "Connections each time.") var connections = 2_000
    @Option(help: "The size of the server's one answer to each connection, in bytes (a game's welcome is some 8,000).")
    var replyBytes = 16
    @Option(help: "Write the answer in pieces of this many bytes, each flushed (default: at once).")
    var replyPieceBytes: Int?

    func run() async throws {
        let limit = FileLimit.raise(to: connections * 2 + 1024)
        guard limit >= connections + 256 else { throw ValidationError("\(connections) connections need about \(connections + 256) file descriptors.") }
        var result: [String: Double] = ["connections": Double(connections)]
        for tls in [false, true] {
            let reply = EchoHandler.reply(bytes: replyBytes)
            let pieces = replyPieceBytes
            let server = try await BareChannel.listen(tls: tls) { EchoHandler(requestBytes: 16, reply: reply, pieceBytes: pieces) }
            let port = server.localAddress?.port ?? 0
            let (before, heapBefore) = (ProcessMemory.residentKB(), ProcessMemory.heapKB())
            let clients = try WorkerProcess(
                subcommand: "tls-clients", arguments: ["--port", "\(port)", "--count", "\(connections)", "--reply-bytes", "\(replyBytes)"] + (tls ? ["--clients-tls"] : []))
            guard let line = await clients.nextLine(), line.contains("answered") else { throw BenchFailure("the clients did not connect") }
            let (after, heapAfter) = (ProcessMemory.residentKB(), ProcessMemory.heapKB())
            let kind = tls ? "tls" : "plain"
            result["\(kind)_kb_per_connection"] = Double(after - before) / Double(connections)
            result["\(kind)_heap_in_use_kb_per_connection"] = Double(heapAfter.inUse - heapBefore.inUse) / Double(connections)
            result["\(kind)_heap_free_kb_per_connection"] = Double(heapAfter.free - heapBefore.free) / Double(connections)
            await clients.quit()
            try? await server.close()
        }
        let data = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }
}

/// `guessnum-bench tls-clients`: opens `--count` connections to `--port`, each sending one
/// 16-byte request and reading its 16-byte answer; says `answered` when all have, then holds
/// them open until its input ends.
struct TLSClients: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tls-clients", abstract: "The clients of tls-memory.", shouldDisplay: false)

    @Option var port: Int
    @Option var count: Int
    @Option var replyBytes = 16
    // Not `--tls`: the benchmark command's own flag of that name would take it.
    @Flag(name: .customLong("clients-tls")) var tls = false

    func run() async throws {
        _ = FileLimit.raise(to: count * 2 + 1024)
        let group = MultiThreadedEventLoopGroup.singleton
        var channels: [any Channel] = []
        for start in stride(from: 0, to: count, by: 100) {
            var answers: [EventLoopFuture<Void>] = []
            for _ in start..<min(start + 100, count) {
                let answered = group.next().makePromise(of: LatencyHistogram.self)
                let tls = tls
                channels.append(try await BareChannel.connect(port: port, tls: tls) {
                    PingPongClient(requestBytes: 16, replyBytes: replyBytes, waitsForHandshake: tls, warmUp: 0, nanoseconds: 0, done: answered)
                })
                answers.append(answered.futureResult.map { _ in })
            }
            for answer in answers { try await answer.get() }
        }
        LineChannel.emit(#"{"event":"answered"}"#)
        var commands = LineChannel.lines(from: STDIN_FILENO).makeAsyncIterator()
        _ = await commands.next()
        for channel in channels { channel.close(promise: nil) }
    }
}
