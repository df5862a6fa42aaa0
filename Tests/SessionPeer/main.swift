// SessionPeer: a test tool, not shipped. A bare Multipeer session in its own process, for the
// library's cross-process tests: it relays lines of chat (message type "chat", JSON
// {"text": …}) and prints, one line each, what it receives.
//
//   SessionPeer host NAME            listen on a free port, print "NAME listening on port N.",
//                                    relay each guest's chat to the others as "NAME: text",
//                                    send stdin lines to everyone; keep serving until SIGTERM.
//                                    The line "/block-pool MS" sends nothing: it blocks every
//                                    thread of Swift's cooperative pool for MS milliseconds (as
//                                    someone else's work in the program would) and prints
//                                    "A task waited N ms for the pool." once a task could run
//   SessionPeer join NAME HOST:PORT  join, send stdin lines, print received chat; leave with a
//                                    goodbye at end of input, or when the host goes
//
// SESSION_PEER_HEARTBEAT_MS and SESSION_PEER_TIMEOUT_MS, when set, shorten the session's
// heartbeat interval and peer timeout (for tests of heartbeats with shortened timers).
import Foundation
import Multipeer
import MultipeerNIO

struct Chat: SessionMessage {
    static let messageType = "chat"
    var text: String
}

/// The session configuration, with the timers the environment asks for.
func configuration() -> SessionConfiguration {
    var configuration = SessionConfiguration()
    let environment = ProcessInfo.processInfo.environment
    if let text = environment["SESSION_PEER_HEARTBEAT_MS"], let milliseconds = Int(text) {
        configuration.heartbeatInterval = .milliseconds(milliseconds)
    }
    if let text = environment["SESSION_PEER_TIMEOUT_MS"], let milliseconds = Int(text) {
        configuration.peerTimeout = .milliseconds(milliseconds)
    }
    return configuration
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func stdinLines() -> AsyncStream<String> {
    AsyncStream { continuation in
        let reader = Thread {
            while let line = readLine() { continuation.yield(line) }
            continuation.finish()
        }
        reader.start()
    }
}

/// Takes every thread of the cooperative pool for `duration` with blocking work, then reports
/// how long a task queued behind that work waited to run.
func blockPool(for duration: Duration) {
    let asked = ContinuousClock.now
    let until = asked + duration
    for _ in 0..<(ProcessInfo.processInfo.activeProcessorCount * 4) {
        Task.detached { while ContinuousClock.now < until { usleep(1_000) } }
    }
    Task.detached {
        let waited = ContinuousClock.now - asked
        say("A task waited \(waited.components.seconds * 1000 + waited.components.attoseconds / 1_000_000_000_000_000) ms for the pool.")
    }
}

func host(name: String) async throws {
    let session = Session(localPeer: try PeerID(displayName: name), transport: TCPTransport(), configuration: configuration())
    let relay = session.events.observe(.dataReceived) { received in
        guard let chat = try? received.decode(Chat.self) else { return }
        say("\(received.peer.displayName): \(chat.text)")
        let others = session.connectedPeers.filter { $0 != received.peer }
        try? session.send(Chat(text: "\(received.peer.displayName): \(chat.text)"), to: others)
    }
    let presence = session.events.observe(.stateChanged) { change in
        if change.state == .connected { say("\(change.peer.displayName) joined.") }
        if change.state == .notConnected { say("\(change.peer.displayName) left.") }
    }
    let port = try await session.startListening()
    say("\(name) listening on port \(port).")
    for await line in stdinLines() {
        if line.hasPrefix("/block-pool "), let milliseconds = Int(line.dropFirst("/block-pool ".count)) {
            blockPool(for: .milliseconds(milliseconds))
        } else {
            _ = try? session.sendToAll(Chat(text: "\(name): \(line)"))
        }
    }
    let stop = DispatchSource.makeSignalSource(signal: SIGTERM, queue: .global())
    signal(SIGTERM, SIG_IGN)
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        stop.setEventHandler { done.resume() }
        stop.resume()
    }
    await session.disconnect(reason: "the host closed the session")
    withExtendedLifetime((relay, presence)) {}
}

func join(name: String, address: String) async throws {
    let session = Session(localPeer: try PeerID(displayName: name), transport: TCPTransport(), configuration: configuration())
    let printing = session.events.observe(.dataReceived) { received in
        if let chat = try? received.decode(Chat.self) { say(chat.text) }
    }
    guard case .connected(let host) = try await session.invite(Endpoint(parsing: address)) else {
        say("not let in")
        exit(3)
    }
    say("Joined \(host.displayName).")
    let hostGone = session.events.stream(.stateChanged)
    await withTaskGroup(of: Void.self) { group in
        group.addTask { for await line in stdinLines() { _ = try? session.sendToAll(Chat(text: line)) } }
        group.addTask { for await change in hostGone where change.state == .notConnected { return } }
        await group.next()
        group.cancelAll()
    }
    await session.disconnect()
    withExtendedLifetime(printing) {}
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "host" where arguments.count == 2: try await host(name: arguments[1])
    case "join" where arguments.count == 3: try await join(name: arguments[1], address: arguments[2])
    default:
        FileHandle.standardError.write(Data("usage: SessionPeer host NAME | join NAME HOST:PORT\n".utf8))
        exit(64)
    }
} catch let error as MultipeerError {
    say(error.message)
    exit(1)
}
