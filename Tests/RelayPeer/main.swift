// RelayPeer: a test tool, not shipped. Someone in the middle, as issue 24's attacker was: it
// listens over TLS with a key of its own and, for each connection it accepts, connects to the real
// host over TLS with a second key of its own, passing every frame along both ways. Only the
// identities in HELLO and ACCEPT are rewritten, to those of its own keys, which each leg's TLS
// handshake proves (the peers would refuse the relay otherwise); names, nonces, contexts, challenges
// and answers pass unchanged.
//
//   RelayPeer HOST:PORT    listen on a free port, print "Relay listening on port N as IDENTITY.", relay until
//                          SIGTERM; print "Relayed HELLO from NAME." for each invitation passed on
import Foundation
import Multipeer
import MultipeerNIO
import Synchronization

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// The relay's two keys: the one it shows the inviter (front) and the one it shows the host (back).
struct Keys: Sendable {
    let front = PeerKey.generate()
    let back = PeerKey.generate()
}

/// One relayed connection: the inviter's (front) and the relay's own to the host (back).
final class Pair: Sendable {
    private struct State {
        var back: (any Connection)?
        var held: [Frame] = []
        var closed = false
    }

    private let state = Mutex(State())
    let keys: Keys
    let host: Endpoint
    let transport: TCPTransport
    let front: Mutex<(any Connection)?> = Mutex(nil)

    init(keys: Keys, host: Endpoint, transport: TCPTransport) {
        self.keys = keys
        self.host = host
        self.transport = transport
    }

    /// A frame from the inviter, rewritten, toward the host (held until the back link is open).
    func fromFront(_ frame: Frame) {
        var frame = frame
        if case .hello(var hello) = frame, let peer = try? PeerID(displayName: hello.peer.displayName, identity: keys.back.fingerprint.identity) {
            say("Relayed HELLO from \(hello.peer.displayName).")
            hello.peer = peer
            frame = .hello(hello)
        }
        let back: (any Connection)? = state.withLock { state in
            if state.back == nil { state.held.append(frame) }
            return state.back
        }
        back?.send(FrameCodec.encode(frame))
    }

    /// A frame from the host, rewritten, toward the inviter.
    func fromBack(_ frame: Frame) {
        var frame = frame
        if case .accept(var accept) = frame, let peer = try? PeerID(displayName: accept.peer.displayName, identity: keys.front.fingerprint.identity) {
            accept.peer = peer
            frame = .accept(accept)
        }
        front.withLock { $0 }?.send(FrameCodec.encode(frame))
    }

    func backOpened(_ connection: any Connection) {
        let held: [Frame] = state.withLock { state in
            state.back = connection
            defer { state.held = [] }
            return state.held
        }
        for frame in held { connection.send(FrameCodec.encode(frame)) }
    }

    func close() {
        let back: (any Connection)? = state.withLock { state in
            guard !state.closed else { return nil }
            state.closed = true
            return state.back
        }
        back?.close()
        front.withLock { $0 }?.close()
    }
}

final class FrontHandler: ConnectionHandler {
    let pair: Pair
    init(pair: Pair) { self.pair = pair }

    func connectionDidOpen(_ connection: any Connection) {
        pair.front.withLock { $0 = connection }
        let pair = pair
        Task {
            do {
                let back = try await pair.transport.connect(to: pair.host, options: LinkOptions(), timeout: .seconds(5), handler: BackHandler(pair: pair))
                pair.backOpened(back)
            } catch {
                say("Could not reach the host: \(error)")
                pair.close()
            }
        }
    }

    func connection(_ connection: any Connection, didReceive frame: Frame) { pair.fromFront(frame) }
    func connection(_ connection: any Connection, didCloseWith error: MultipeerError?) { pair.close() }
}

final class BackHandler: ConnectionHandler {
    let pair: Pair
    init(pair: Pair) { self.pair = pair }

    func connectionDidOpen(_ connection: any Connection) {}
    func connection(_ connection: any Connection, didReceive frame: Frame) { pair.fromBack(frame) }
    func connection(_ connection: any Connection, didCloseWith error: MultipeerError?) { pair.close() }
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 1, let host = try? Endpoint(parsing: arguments.first!) else {
    FileHandle.standardError.write(Data("usage: RelayPeer HOST:PORT\n".utf8))
    exit(64)
}
let keys = Keys()
do {
    let frontTransport = TCPTransport(credentials: try TLSCredentials(key: keys.front))
    let backTransport = TCPTransport(credentials: try TLSCredentials(key: keys.back))
    let listener = try await frontTransport.listen(port: 0, options: LinkOptions()) {
        FrontHandler(pair: Pair(keys: keys, host: host, transport: backTransport))
    }
    say("Relay listening on port \(listener.port) as \(keys.front.fingerprint.identity.uuidString.lowercased()).")
    while true { try await Task.sleep(for: .seconds(3600)) }
} catch {
    FileHandle.standardError.write(Data("RelayPeer: \(error)\n".utf8))
    exit(1)
}
