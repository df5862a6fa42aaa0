// DiscoveryProbe: a test tool that runs inside a test-LAN host and drives the real discovery
// stack (Session over TCP, Advertiser, Browser, AvahiDiscovery), printing one JSON object a
// line for every event, with a CLOCK_MONOTONIC timestamp in milliseconds ("t"), so tests and
// the discovery benchmark can read what happened and when. Not shipped.
//
//   DiscoveryProbe publish NAME [KEY=VALUE…]   announce NAME; stdin takes: update K=V…, stop, start, quit
//   DiscoveryProbe browse [--invite NAME]      report found/updated/lost; optionally invite NAME once found
import Foundation
import Multipeer
import MultipeerAvahi
import MultipeerNIO

struct ProbeLine: Encodable {
    var event: String
    var t: Double = ProbeClock.milliseconds
    var name: String?
    var id: String?
    var endpoints: [String]?
    var info: [String: String]?
    var code: String?
    var message: String?
    var port: Int?
}

enum ProbeClock {
    static var milliseconds: Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1_000_000
    }
}

func emit(_ line: ProbeLine) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let data = (try? encoder.encode(line)) ?? Data("{}".utf8)
    FileHandle.standardOutput.write(data + Data("\n".utf8))
}

func describe(_ peer: DiscoveredPeer, as event: String) -> ProbeLine {
    ProbeLine(event: event, name: peer.peer.displayName, id: peer.peer.identity.uuidString.lowercased(),
              endpoints: peer.endpoints.map(\.description), info: peer.info.entries)
}

func parseInfo(_ arguments: some Sequence<String>) throws -> DiscoveryInfo {
    var entries: [String: String] = [:]
    for argument in arguments {
        guard let equals = argument.firstIndex(of: "=") else { continue }
        entries[String(argument[..<equals])] = String(argument[argument.index(after: equals)...])
    }
    return try DiscoveryInfo(entries)
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

func publish(name: String, infoArguments: [String]) async throws {
    let session = Session(localPeer: try PeerID(displayName: name), transport: TCPTransport())
    let port = try await session.startListening(policy: .acceptAll)
    let observation = session.events.observe(.advertiserEvent) { event in
        switch event {
        case .established: emit(ProbeLine(event: "established"))
        case .renamed(let name): emit(ProbeLine(event: "renamed", name: name))
        case .failed(let error): emit(ProbeLine(event: "failed", code: error.code.rawValue, message: error.message))
        }
    }
    let joined = session.events.observe(.stateChanged) { change in
        if change.state == .connected { emit(ProbeLine(event: "joined", name: change.peer.displayName)) }
    }
    let advertiser = Advertiser(session: session, serviceType: try ServiceType("guessnum"),
                                discoveryInfo: try parseInfo(infoArguments), discovery: AvahiDiscovery())
    emit(ProbeLine(event: "publishing", name: name, id: session.localPeer.identity.uuidString.lowercased(), port: port))
    try await advertiser.start()
    for await line in stdinLines() {
        let words = line.split(separator: " ").map(String.init)
        switch words.first {
        case "update": try await advertiser.update(parseInfo(words.dropFirst())); emit(ProbeLine(event: "updated"))
        case "stop": await advertiser.stop(); emit(ProbeLine(event: "stopped"))
        case "start": emit(ProbeLine(event: "publishing", name: name, port: port)); try await advertiser.start()
        case "quit": await session.disconnect(); withExtendedLifetime((observation, joined)) {}; return
        default: emit(ProbeLine(event: "unknown-command", message: line))
        }
    }
    await session.disconnect()
    withExtendedLifetime((observation, joined)) {}
}

func browse(invite target: String?) async throws {
    let me = try PeerID(displayName: "probe-browser")
    let session = Session(localPeer: me, transport: TCPTransport())
    let browser = Browser(serviceType: try ServiceType("guessnum"), localPeer: me, discovery: AvahiDiscovery())
    let events = browser.events.stream(.browserEvent)
    try await browser.start()
    emit(ProbeLine(event: "browsing"))
    var invited = false
    for await event in events {
        switch event {
        case .found(let peer):
            emit(describe(peer, as: "found"))
            if peer.peer.displayName == target, !invited {
                invited = true
                switch try await session.invite(peer, timeout: .seconds(10)) {
                case .connected(let host): emit(ProbeLine(event: "connected", name: host.displayName))
                case .declined(let reason): emit(ProbeLine(event: "declined", message: reason))
                case .timedOut: emit(ProbeLine(event: "timed-out"))
                }
            }
        case .updated(let peer): emit(describe(peer, as: "updated"))
        case .lost(let peer): emit(ProbeLine(event: "lost", name: peer.displayName, id: peer.identity.uuidString.lowercased()))
        case .failed(let error): emit(ProbeLine(event: "failed", code: error.code.rawValue, message: error.message))
        }
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "publish" where arguments.count >= 2:
        try await publish(name: arguments[1], infoArguments: Array(arguments.dropFirst(2)))
    case "browse":
        try await browse(invite: arguments.count >= 3 && arguments[1] == "--invite" ? arguments[2] : nil)
    default:
        FileHandle.standardError.write(Data("usage: DiscoveryProbe publish NAME [K=V…] | browse [--invite NAME]\n".utf8))
        exit(2)
    }
} catch let error as MultipeerError {
    emit(ProbeLine(event: "error", code: error.code.rawValue, message: error.message))
    exit(1)
}
