import Foundation
import Multipeer
import MultipeerTestSupport
import Testing

/// A real `guessnum host` process against scripted clients over loopback TCP: clients from one
/// address cannot take every seat or every handshake slot, and a guest that stops reading is
/// disconnected without the host's memory growing with it.
@Suite("Hostile guests", .timeLimit(.minutes(3)))
struct HostileGuestsTests {
    static let noBus = ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/guessnum-test-bus"]

    /// Starts a host on a free port; returns it and its port.
    func host(_ extra: [String] = []) async throws -> (ChildProcess, Int) {
        let host = try ChildProcess(
            try guessnumExecutable(), ["host", "--name", "alice", "--secret", "5", "--log-level", "notice"] + extra,
            environment: personEnvironment().merging(Self.noBus) { $1 })
        let banner = try #require(await host.line(containing: "directly: ", within: .seconds(30)), "host: \(host.text)")
        let address = try #require(banner.components(separatedBy: " ").last)
        let port = try #require(Int(address.split(separator: ":").last ?? ""), "\(banner)")
        return (host, port)
    }

    /// Connects from `source` over TLS with a key of its own and says hello as a new peer with
    /// that key's identity; returns the client and the host's answer (nil when the host closed
    /// the connection without one).
    func join(port: Int, from source: String = "127.0.0.1", name: String, receiveBufferBytes: Int? = nil) async throws -> (TLSRawSocket, Frame?) {
        let key = PeerKey.generate()
        let hello = Frame.hello(.init(peer: try key.peer(displayName: name), invitationTimeoutMilliseconds: 10_000, codeCommitment: SampleFrames.codeCommitment, context: Data()))
        // Written from the connection's event loop as the TLS handshake completes, so that a busy
        // test process never makes the host's 5 s handshake deadline pass before it. Its RESUME
        // follows at once: the host reads it once it has decided, as a connected peer's.
        let socket = try await TLSRawSocket.connect(
            port: port, from: source, key: key, receiveBufferBytes: receiveBufferBytes, readTimeout: .seconds(30),
            firstBytes: FrameCodec.encode(hello).bytes + FrameCodec.encode(SampleFrames.freshResume).bytes, heartbeats: true)
        guard let bytes = await socket.readFrame() else { return (socket, nil) }
        var decoder = FrameDecoder()
        decoder.append(bytes)
        return (socket, try decoder.nextFrame())
    }

    @Test("100 clients from one address, as many as the game has seats, take only their share; a second address still joins")
    func oneAddressCannotTakeEverySeat() async throws {
        let (host, port) = try await host()
        defer { host.signal(SIGKILL) }
        let accepted = Locked<[TLSRawSocket]>([])
        // Keeps the accepted clients alive while the rest try.
        let heartbeats = Task.detached {
            while !Task.isCancelled {
                for socket in accepted.value { socket.write(FrameCodec.encode(.heartbeat).bytes) }
                try? await Task.sleep(for: .milliseconds(300))
            }
        }
        defer { heartbeats.cancel() }
        var declines: [String?] = []
        var others: [Frame?] = []
        for index in 0..<100 {
            let (socket, answer) = try await join(port: port, name: "bot\(index)")
            switch answer {
            case .accept?: accepted.withLock { $0.append(socket) }
            case .decline(let decline)?: declines.append(decline.reason)
            default: others.append(answer)
            }
        }
        #expect(accepted.value.count == 10, "the default share of one address")
        #expect(declines.count == 90 && others.isEmpty, "\(others); host: \(host.text.suffix(3000))")
        #expect(declines.allSatisfy { $0?.contains("from your network address") == true }, "\(Set(declines))")

        let (_, answer) = try await join(port: port, from: "127.0.0.2", name: "carol")
        guard case .accept? = answer else {
            Issue.record("a second address is let in: \(String(describing: answer))")
            return
        }
        let refusals = host.text.components(separatedBy: "\n").filter { $0.contains("Guest turned away.") }
        #expect(refusals.count == 90, "one notice per guest turned away")
        #expect(refusals.allSatisfy { $0.contains("address=127.0.0.1:") && $0.contains("reason=") }, "\(refusals.first ?? "")")
    }

    @Test("Seats held for players who dropped still count toward their address's share: dropping links makes no room for more")
    func heldSeatsCount() async throws {
        let (host, port) = try await host(["--max-players-per-address", "2"])
        defer { host.signal(SIGKILL) }
        for name in ["bot0", "bot1"] {
            let (socket, answer) = try await join(port: port, name: name)
            guard case .accept? = answer else { throw TestFailure("\(name) is let in: \(String(describing: answer)); host: \(host.text.suffix(3000))") }
            socket.write(FrameCodec.encode(.reveal(nonce: SampleFrames.codeNonce)).bytes)
            socket.close()  // a drop: no goodbye, so the host holds the seat
            #expect(await host.line(containing: "\(name) is away") != nil, "host: \(host.text)")
        }
        let (_, answer) = try await join(port: port, name: "bot2")
        guard case .decline(let decline)? = answer else {
            Issue.record("two seats held for the address: a third player from it is turned away, not \(String(describing: answer))")
            return
        }
        #expect(decline.reason?.contains("from your network address") == true, "\(decline.reason ?? "")")
        let (_, other) = try await join(port: port, from: "127.0.0.2", name: "carol")
        guard case .accept? = other else {
            Issue.record("another address is let in: \(String(describing: other))")
            return
        }
    }

    @Test("A game host announces no byte streams or resources; a guest that opens a stream or offers a file anyway is disconnected as breaking the protocol")
    func streamsAndResourcesRefused() async throws {
        let (host, port) = try await host()
        defer { host.signal(SIGKILL) }
        let offer = Frame.resourceOffer(.init(
            streamID: 1, transfer: Array(repeating: 7, count: 16), size: 1 << 30, digest: Array(repeating: 0, count: 32), name: "big.bin"))
        for (name, frame) in [("streamer", Frame.streamOpen(id: 1, name: "parked")), ("offerer", offer)] {
            let (socket, answer) = try await join(port: port, name: name)
            guard case .accept(let accept)? = answer else { throw TestFailure("\(name) is let in: \(String(describing: answer)); host: \(host.text.suffix(3000))") }
            #expect(accept.features == WireProtocol.messagesOnly, "the ACCEPT announces \(accept.features)")
            socket.write(FrameCodec.encode(.reveal(nonce: SampleFrames.codeNonce)).bytes)
            socket.write(FrameCodec.encode(frame).bytes)
            let (bytes, end) = await socket.readToEnd()
            var decoder = FrameDecoder()
            decoder.append(bytes)
            var frames: [Frame] = []
            while let next = try decoder.nextFrame() { frames.append(next) }
            #expect(end == .closed, "\(name): the host closed the link")
            #expect(frames.last == .goodbye(reason: "protocol violation"), "\(name) heard: \(frames.suffix(2))")
        }
    }

    @Test("A flood of silent connections from one address leaves handshake room for another")
    func handshakeFloodLeavesRoom() async throws {
        let (host, port) = try await host()
        defer { host.signal(SIGKILL) }
        var flood: [RawSocket] = []
        for _ in 0..<200 { flood.append(try RawSocket(port: port, readTimeoutSeconds: 30)) }  // never say hello
        defer { for socket in flood { socket.close() } }
        // Past the share of one address, connections are closed as soon as they are accepted.
        #expect(await flood.last?.readToEnd().end == .closed)

        let (_, answer) = try await join(port: port, from: "127.0.0.2", name: "carol")
        guard case .accept? = answer else {
            Issue.record("a second address is let in: \(String(describing: answer)); host: \(host.text)")
            return
        }
        let refusals = host.text.components(separatedBy: "\n").filter { $0.contains("too many handshakes") }
        #expect(refusals.count == 1, "one notice for the address, not one per connection: \(refusals)")
        #expect(refusals.first?.contains("address=127.0.0.1") == true)
    }

    /// The resident memory of process `pid` in MiB, from /proc/PID/status (VmRSS).
    static func residentMiB(_ pid: Int32) -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kib = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kib / 1024
    }

    static func data(_ type: String, _ json: String) -> [UInt8] {
        FrameCodec.encode(.data(messageType: type, payload: Data(json.utf8))).bytes
    }

    @Test("A guest that stops reading is disconnected as not reading, the host's memory stays bounded, and honest guests play on")
    func nonReaderIsDropped() async throws {
        let (host, port) = try await host()
        defer { host.signal(SIGKILL) }
        // Honest guests: chat and guess at the rates the host allows, and read everything.
        var honest: [TLSRawSocket] = []
        for index in 0..<8 {
            let (socket, answer) = try await join(port: port, name: "honest\(index)")
            guard case .accept? = answer else { throw TestFailure("honest\(index) was not let in: \(String(describing: answer)); host: \(host.text.suffix(3000))") }
            honest.append(socket)
        }
        let received = Locked(0)
        let stop = Locked(false)
        for socket in honest {
            Task {
                while !stop.value {
                    let chunk = await socket.readSome()
                    received.withLock { $0 += chunk.bytes.count }
                    if chunk.end == .closed || chunk.end == .reset { return }
                }
            }
        }
        defer {
            stop.withLock { $0 = true }
            for socket in honest { socket.close() }
        }
        let line = String(repeating: "x", count: 400)
        var turn = 0
        /// One chat line and one guess from every honest guest: 5 a second each, within the
        /// host's limits.
        func talk() {
            for (index, socket) in honest.enumerated() {
                socket.write(Self.data("guessnum.v1.chat", #"{"text":"\#(line)"}"#) + Self.data("guessnum.v1.guess", #"{"guess":\#(1 + (index + turn) % 4)}"#))
            }
            turn += 1
        }
        for _ in 0..<5 {
            talk()
            try await Task.sleep(for: .milliseconds(200))
        }
        let baseline = try #require(Self.residentMiB(host.pid))

        // The guest that never reads: it keeps its link alive and asks for the whole game state
        // as often as the host allows. Its small receive buffer only makes the backlog come sooner.
        let (reader, answer) = try await join(port: port, from: "127.0.0.2", name: "sponge", receiveBufferBytes: 4096)
        guard case .accept? = answer else { throw TestFailure("the non-reader was not let in: \(String(describing: answer)); host: \(host.text.suffix(3000))") }
        try await reader.stopReading()
        defer { reader.close() }
        var peak = baseline
        let start = ContinuousClock.now
        while ContinuousClock.now - start < .seconds(60), !host.text.contains("Peer stopped reading") {
            talk()
            reader.write(Self.data("guessnum.v1.sync", "{}") + FrameCodec.encode(.heartbeat).bytes)
            peak = max(peak, Self.residentMiB(host.pid) ?? 0)
            try await Task.sleep(for: .milliseconds(200))
        }
        let dropped = ContinuousClock.now - start
        let notice = host.text.split(separator: "\n").first { $0.contains("Peer stopped reading") }
        print("Non-reader: host VmRSS baseline \(baseline) MiB, peak \(peak) MiB, dropped after \(dropped): \(notice ?? "no notice")")
        #expect(notice?.contains("address=127.0.0.2:") == true && notice?.contains("reason=not reading") == true, "host: \(host.text.suffix(2000))")
        // The budget is 2 MiB a guest; the rest is slack for allocator and runtime noise.
        #expect(peak - baseline < 48, "baseline \(baseline) MiB, peak \(peak) MiB")

        // Honest guests are still served, and newcomers still let in.
        let before = received.value
        for _ in 0..<5 {
            talk()
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(received.value > before, "honest guests keep receiving the game")
        let (_, late) = try await join(port: port, from: "127.0.0.3", name: "latecomer")
        guard case .accept? = late else { throw TestFailure("a latecomer was not let in: \(String(describing: late)); host: \(host.text.suffix(3000))") }
    }
}
