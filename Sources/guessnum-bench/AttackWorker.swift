import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import GuessnumGame
import Multipeer
import MultipeerNIO
import MultipeerPOSIX
import Synchronization

/// `guessnum-bench attack`: one hostile client process (see ``BenchAttack``), started by the
/// coordinator. It reports `ready` once it is attacking, attacks for `--duration`
/// seconds (or until `quit`), then prints its ``AttackReport`` and exits.
struct AttackWorker: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attack", abstract: "A hostile client for one benchmark run (started by guessnum-bench itself).", shouldDisplay: false)

    @Option(help: "The host's port on 127.0.0.1.") var port: Int
    @Option(help: "nonreader, flood, seats or handshakes.") var kind: BenchAttack
    @Option(name: .customLong("duration"), help: "Seconds to attack for.") var seconds: Double

    func run() async throws {
        BenchLogging.bootstrap()
        FileLimit.raise(to: 4096)
        let attacker = Attacker(port: port, kind: kind, until: ContinuousClock.now + .milliseconds(Int64(seconds * 1000)))
        try attacker.start()
        LineChannel.emit(#"{"event":"ready"}"#)
        let report = await onOwnThread { attacker.runToEnd() }
        LineChannel.emit(String(decoding: try JSONEncoder().encode(report), as: UTF8.self))
    }
}

/// The attack itself, on plain blocking sockets and threads of its own.
final class Attacker: Sendable {
    /// Where every attacking connection comes from: another address than the honest guests'.
    static let source = "127.0.0.2"
    let port: Int
    let kind: BenchAttack
    let until: ContinuousClock.Instant
    private let counts = Mutex((connections: 0, frames: 0, closed: 0))
    private let sockets = Mutex<[RawSocket]>([])

    init(port: Int, kind: BenchAttack, until: ContinuousClock.Instant) {
        self.port = port
        self.kind = kind
        self.until = until
    }

    /// Opens the attack's first connections.
    func start() throws {
        switch kind {
        case .nonreader:
            try join("never reads", reads: false, receiveBuffer: 4096)
            for index in 0..<9 { try join("chatter \(index)", reads: true) }
        case .flood:
            try join("flooder", reads: true)
        case .seats:
            for index in 0..<99 { try join("seat \(index)", reads: true) }
        case .handshakes:
            break
        }
    }

    /// Attacks until the end; returns what it did.
    func runToEnd() -> AttackReport {
        let longLine = ChatMessage(text: String(repeating: "ä", count: 499))
        let chat = FrameCodec.encode(.data(messageType: ChatMessage.messageType, payload: (try? JSONEncoder().encode(longLine)) ?? Data()))
        let unknown = FrameCodec.encode(.data(messageType: "guessnum.v1.teleport", payload: Data("{}".utf8)))
        var lastHeartbeat = ContinuousClock.now
        var idle: [RawSocket] = []
        while ContinuousClock.now < until {
            let live = sockets.withLock { $0 }
            switch kind {
            case .nonreader:
                for socket in live.dropFirst() { send(chat, on: socket) }  // the nine chatters, at 5 lines a second
                Thread.sleep(forTimeInterval: 0.2)
            case .flood:
                for _ in 0..<100 { if let flooder = live.first { send(unknown, on: flooder) } }  // 10,000 a second
                Thread.sleep(forTimeInterval: 0.01)
            case .seats:
                Thread.sleep(forTimeInterval: 0.2)
            case .handshakes:
                idle.removeAll { !$0.isOpen }
                while idle.count < 1000, let socket = try? RawSocket.connect(port: port, source: Self.source) {
                    counts.withLock { $0.connections += 1 }
                    idle.append(socket)
                }
                Thread.sleep(forTimeInterval: 0.1)
            }
            if ContinuousClock.now - lastHeartbeat >= .seconds(1) {
                lastHeartbeat = .now
                for socket in live { send(GuestWire.heartbeat, on: socket) }
            }
        }
        let (connections, frames, closed) = counts.withLock { ($0.connections, $0.frames, $0.closed) }
        let dropped = kind == .handshakes ? max(0, connections - idle.count) : closed
        return AttackReport(attack: kind, connections: connections, framesSent: frames, closedByHost: dropped)
    }

    /// Connects, says hello as `name`, and (when `reads`) drains what the host sends on a thread.
    private func join(_ name: String, reads: Bool, receiveBuffer: Int32? = nil) throws {
        let socket = try RawSocket.connect(port: port, receiveBuffer: receiveBuffer, source: Self.source)
        counts.withLock { $0.connections += 1 }
        send(GuestWire.hello(from: try PeerID(displayName: name), codeNonce: VerificationCode.nonce()), on: socket)
        send(GuestWire.freshResume(), on: socket)
        sockets.withLock { $0.append(socket) }
        guard reads else { return }
        let reader = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65536)
            while socket.readSome(&buffer) {}
            counts.withLock { $0.closed += 1 }
        }
        reader.start()
    }

    private func send(_ frame: EncodedFrame, on socket: RawSocket) {
        let sent = frame.bytes.withUnsafeBytes { socket.writeAll($0) }
        counts.withLock { $0.frames += sent ? 1 : 0 }
    }
}
