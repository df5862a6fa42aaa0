import ArgumentParser
import Foundation
import Multipeer

/// `guessnum-bench stream-peer`: the far end of the byte-stream and resource benchmarks, in a process of its
/// own, driven over its standard input (one command a line) and reporting on its standard
/// output (one JSON object a line). It leaves on `quit` or at the end of its input, so it never
/// outlives the benchmark.
struct StreamPeer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stream-peer",
        abstract: "The receiving end of the byte-stream benchmark (started by guessnum-bench streams itself).",
        shouldDisplay: false
    )

    enum Role: String, ExpressibleByArgument, Sendable {
        /// A Session over TLS that reads every stream it is sent and reports its bytes and times.
        case sink
        /// A bare TLS server (NIOSSL, no framing) that counts the bytes of each connection.
        case tlsSink = "tls-sink"
        /// A game guest over TLS that measures guess→verdict round trips, with or without a stream.
        case guest
        /// A Session over TLS that accepts every resource into `--inbox` (`guessnum-bench resources`).
        case resourceSink = "resource-sink"
    }

    @Option(help: "sink, tls-sink, guest or resource-sink.") var role: Role
    @Option(help: "guest: the game host's port on 127.0.0.1.") var hostPort: Int?
    @Option(help: "sink: the session's streamWindow in KiB.") var windowKib: Int?
    @Option(help: "sink: the session's streamChunkLength in KiB.") var chunkKib: Int?
    @Option(help: "sink: the session's maximumStreamWindow in KiB.") var maximumWindowKib: Int?
    @Option(help: "resource-sink: the directory resources are saved in.") var inbox: String?

    func validate() throws {
        if role == .guest, hostPort == nil { throw ValidationError("a guest needs --host-port.") }
        if role == .resourceSink, inbox == nil { throw ValidationError("a resource sink needs --inbox.") }
    }

    func run() async throws {
        BenchLogging.bootstrap()
        signal(SIGPIPE, SIG_IGN)
        switch role {
        case .sink: try await StreamSink.run(configuration: StreamTuning(windowKiB: windowKib, chunkKiB: chunkKib, maximumWindowKiB: maximumWindowKib).configuration)
        case .tlsSink: try await RawTLSSink.run()
        case .guest: try await StreamGuest.run(hostPort: hostPort ?? 0)
        case .resourceSink: try await ResourceSink.run(inbox: URL(fileURLWithPath: inbox ?? "."))
        }
    }
}

/// What one receiver took in: its bytes, and when the first and the last of them arrived.
struct ByteTally: Sendable {
    var bytes = 0
    var firstNanoseconds: UInt64 = 0
    var lastNanoseconds: UInt64 = 0

    mutating func add(_ count: Int, at now: UInt64) {
        if bytes == 0 { firstNanoseconds = now }
        bytes += count
        lastNanoseconds = now
    }

    /// The report line the coordinator reads, with the CPU time the receiving process has used
    /// so far.
    var json: String {
        #"{"event":"received","bytes":\#(bytes),"first_ns":\#(firstNanoseconds),"last_ns":\#(lastNanoseconds),"cpu_ns":\#(ProcessCPU.nanoseconds())}"#
    }
}

/// Experiments with the stream settings: both sides of the throughput run get the same.
struct StreamTuning: Sendable {
    let windowKiB: Int?
    let chunkKiB: Int?
    var maximumWindowKiB: Int? = nil

    var configuration: SessionConfiguration {
        var configuration = SessionConfiguration()
        if let windowKiB { configuration.streamWindow = windowKiB * 1024 }
        if let chunkKiB { configuration.streamChunkLength = chunkKiB * 1024 }
        if let maximumWindowKiB { configuration.maximumStreamWindow = maximumWindowKiB * 1024 }
        return configuration
    }

    /// The same, for a `stream-peer` child.
    var arguments: [String] {
        (windowKiB.map { ["--window-kib", String($0)] } ?? []) + (chunkKiB.map { ["--chunk-kib", String($0)] } ?? [])
            + (maximumWindowKiB.map { ["--maximum-window-kib", String($0)] } ?? [])
    }
}
