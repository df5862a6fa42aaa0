import Foundation
import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Testing

/// Resources over the in-memory network: the scenarios the TLS suite runs too, plus a link cut
/// by the network and a peer that breaks the rules of §3.9.
@Suite("Resources", .timeLimit(.minutes(2)))
struct ResourceTests {
    func withConnected(_ body: (ResourceScenarios, TwoPeers) async throws -> Void) async throws {
        try await withTwoPeers { peers async throws in
            let scenarios = ResourceScenarios(host: peers.host, guest: peers.guest)
            try await peers.connect()
            try await body(scenarios, peers)
        }
    }

    @Test("A file goes whole, under its name, 0600, with progress and the started and finished events")
    func sendAndSave() async throws {
        try await withConnected { scenarios, _ in try await scenarios.sendAndSave() }
    }

    @Test("A declined offer ends the sender's transfer with the receiver's reason; an empty file goes too")
    func declinedAndEmpty() async throws {
        try await withConnected { scenarios, _ in try await scenarios.declinedAndEmpty() }
    }

    @Test("A file whose name is taken is saved as 'notes (2).txt', never over the existing one")
    func neverOverwrites() async throws {
        try await withConnected { scenarios, _ in try await scenarios.neverOverwrites() }
    }

    @Test("A cancel by either side mid-transfer ends both with a sentence and leaves no partial file")
    func cancels() async throws {
        try await withConnected { scenarios, _ in try await scenarios.cancels() }
    }

    @Test("A link cut by the network mid-transfer: the guest connects again and the transfer resumes from what the receiver held")
    func resumesAfterCut() async throws {
        try await withConnected { scenarios, peers in
            try await scenarios.resumesAfterDrop(
                drop: {
                    peers.network.severConnections(toPort: peers.port)
                    // Silent past the peer timeout and the next check: both sides find the link lost.
                    await peers.network.advanceTime(by: peers.host.configuration.peerTimeout + .seconds(1))
                },
                reconnect: { try await peers.connect() })
        }
    }

    @Test("A link cut and not back within the resume window (2 minutes): both sides wait it out, then end with resourceInterrupted and the partial file is removed")
    func resumeWindowPasses() async throws {
        try await withTwoPeers { peers async throws in
            let scenarios = ResourceScenarios(host: peers.host, guest: peers.guest)
            try await peers.connect()
            let inbox = try ResourceScenarios.emptyDirectory()
            let sending = try peers.guest.sendResource(
                at: try ResourceScenarios.file(named: "cut.bin", ResourceScenarios.bulk(8 << 20, seed: 5)), to: peers.host.localPeer)
            let receiving = try await scenarios.offer(named: "cut.bin").accept(into: inbox)
            for await step in receiving.progressUpdates where step.completedBytes > 0 { break }
            let ended = Locked(0)
            let watchers = [Task { _ = try? await receiving.outcome(); ended.withLock { $0 += 1 } }, Task { try? await sending.outcome(); ended.withLock { $0 += 1 } }]
            peers.network.severConnections(toPort: peers.port)
            await peers.network.advanceTime(by: peers.host.configuration.peerTimeout + .milliseconds(500))
            #expect(peers.host.connectedPeers.isEmpty && peers.guest.connectedPeers.isEmpty, "the cut was noticed")
            // Each side starts its wait as it hears of the cut: both waits are under way before the clock moves on.
            #expect(await eventually { peers.network.manualClock.sleeperCount == 2 }, "\(peers.network.manualClock.sleeperCount) waits")
            let window = peers.host.configuration.resourceResumeWindow
            await peers.network.advanceTime(by: window - .seconds(1))
            try await Task.sleep(for: .milliseconds(50))  // an end posted too early would show by now
            #expect(ended.value == 0, "a transfer ended before its resume window passed")
            #expect(ResourceScenarios.names(in: inbox).count == 1, "the partial file is kept while the link is down: \(ResourceScenarios.names(in: inbox))")
            await peers.network.advanceTime(by: .seconds(2))
            guard await eventually({ ended.value == 2 }) else {
                Issue.record("\(ended.value) of the 2 transfers ended once the window had passed")
                return
            }
            withExtendedLifetime(watchers) {}
            for outcome in [{ _ = try await receiving.outcome() }, { try await sending.outcome() }] as [@Sendable () async throws -> Void] {
                do {
                    try await outcome()
                    Issue.record("a transfer whose link never came back ended well")
                } catch let error as MultipeerError {
                    #expect(error.code == .resourceInterrupted, "\(error)")
                    #expect(error.message.contains("did not come back within 120 s"), "\(error.message)")
                }
            }
            #expect(ResourceScenarios.names(in: inbox).isEmpty, "left behind: \(ResourceScenarios.names(in: inbox))")
        }
    }

    @Test("A name of the longest a file name may have (255 bytes) is received under that name: its partial file's name is cut to fit")
    func longestName() async throws {
        try await withConnected { scenarios, peers in
            let name = String(repeating: "é", count: 127) + "a"  // 255 bytes
            #expect(name.utf8.count == 255)
            let source = try ResourceScenarios.file(named: "long.bin", Data("long".utf8))
            let sending = try peers.guest.sendResource(at: source, named: name, to: peers.host.localPeer)
            let inbox = try ResourceScenarios.emptyDirectory()
            let receiving = try await scenarios.offer(named: name).accept(into: inbox)
            let saved = try await receiving.outcome()
            try await sending.outcome()
            #expect(saved.lastPathComponent == name)
            #expect(try Data(contentsOf: saved) == Data("long".utf8))
            #expect(ResourceScenarios.names(in: inbox) == [name])
        }
    }

    @Test("Names that are paths, hidden or carry control characters are refused before anything is sent")
    func badNames() async throws {
        try await withConnected { scenarios, peers in
            let source = try ResourceScenarios.file(named: "a.txt", Data("x".utf8))
            for name in ["../a.txt", "/etc/passwd", "dir/a.txt", "a\\b", ".bashrc", "..", "", "bell\u{7}", String(repeating: "a", count: 256)] {
                #expect(throws: MultipeerError.self, "\(name)") { try peers.guest.sendResource(at: source, named: name, to: peers.host.localPeer) }
            }
            do {
                _ = try peers.guest.sendResource(at: source, named: "../a.txt", to: peers.host.localPeer)
            } catch let error as MultipeerError {
                #expect(error.code == .invalidResourceName)
                #expect(error.message.contains("slash"), "\(error.message)")
            }
            do {
                _ = try peers.guest.sendResource(at: source.deletingLastPathComponent(), named: "folder", to: peers.host.localPeer)
                Issue.record("a directory was offered")
            } catch let error as MultipeerError {
                #expect(error.code == .resourceUnreadable)
            }
            #expect(scenarios.offers.all.isEmpty)
        }
    }
}

/// A sender driven frame by frame: it offers resources and then lies about them.
@Suite("Resources: a sender that breaks the rules", .timeLimit(.minutes(1)))
struct ResourceViolationTests {
    /// Mallory offers `size` bytes with `digest`, the host accepts into a new directory, and
    /// Mallory sends `bytes` and finishes; returns the host's outcome, what Mallory heard, and
    /// the directory.
    func offer(size: UInt64, digest: [UInt8], sending bytes: Data) async throws -> (Result<URL, MultipeerError>, [Frame], URL) {
        var outcome: (Result<URL, MultipeerError>, [Frame], URL)?
        var configuration = SessionConfiguration()
        configuration.peerTimeout = .seconds(300)  // Mallory sends no heartbeats
        try await withTwoPeers(configuration: configuration) { peers async throws in
            let offers = EventLog(peers.host.events, .resourceOffered)
            let (raw, _) = try await peers.rawGuest()
            let transfer = Array(repeating: UInt8(7), count: 16)
            raw.send(.resourceOffer(.init(streamID: 1, transfer: transfer, size: size, digest: digest, name: "liar.bin")))
            guard let offer = await offers.first(where: { $0.name == "liar.bin" }) else { throw TestFailure("no offer") }
            let inbox = try ResourceScenarios.emptyDirectory()
            let receiving = try await offer.accept(into: inbox)
            #expect(await eventually { raw.receivedFrames.contains(.resourceAnswer(transfer: transfer, verdict: .accept, offset: 0, reason: nil)) })
            raw.send(.streamData(id: 1, bytes: bytes))
            raw.send(.streamClose(id: 1, end: .finished, reason: nil))
            let result: Result<URL, MultipeerError>
            do throws(MultipeerError) { result = .success(try await receiving.outcome()) } catch { result = .failure(error) }
            #expect(await eventually { raw.receivedFrames.contains { if case .resourceResult = $0 { true } else { false } } })
            #expect(!raw.isClosed, "the link was closed over a bad resource: \(raw.receivedFrames.suffix(3)) \(peers.hostLog.all.suffix(4))")
            outcome = (result, raw.receivedFrames, inbox)
        }
        guard let outcome else { throw TestFailure("no outcome") }
        return outcome
    }

    static let digestOfABC: [UInt8] = Array(Data(base64Encoded: "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=")!)

    @Test("More bytes than offered: refused with a sentence at the first extra byte, nothing kept")
    func sizeTooSmall() async throws {
        let (result, frames, inbox) = try await offer(size: 2, digest: Self.digestOfABC, sending: Data("abc".utf8))
        guard case .failure(let error) = result else {
            Issue.record("saved \(result)")
            return
        }
        #expect(error.code == .resourceFailed)
        #expect(error.message == "“liar.bin” was not saved: more bytes arrived than the 2 offered.", "\(error.message)")
        #expect(frames.contains(.resourceResult(transfer: Array(repeating: 7, count: 16), outcome: .failed, reason: "more bytes arrived than the 2 offered")))
        #expect(ResourceScenarios.names(in: inbox).isEmpty)
    }

    @Test("Fewer bytes than offered, then finished: refused, nothing kept")
    func sizeTooLarge() async throws {
        let (result, _, inbox) = try await offer(size: 4, digest: Self.digestOfABC, sending: Data("abc".utf8))
        guard case .failure(let error) = result else {
            Issue.record("saved \(result)")
            return
        }
        #expect(error.message == "“liar.bin” was not saved: it ended after 3 of its 4 bytes.", "\(error.message)")
        #expect(ResourceScenarios.names(in: inbox).isEmpty)
    }

    @Test("Bytes whose SHA-256 is not the offer's: refused, nothing kept; the right hash is saved")
    func hashMismatch() async throws {
        let (result, _, inbox) = try await offer(size: 3, digest: Self.digestOfABC, sending: Data("abd".utf8))
        guard case .failure(let error) = result else {
            Issue.record("saved \(result)")
            return
        }
        #expect(error.message.contains("SHA-256 does not match"), "\(error.message)")
        #expect(ResourceScenarios.names(in: inbox).isEmpty)
        let (good, frames, _) = try await offer(size: 3, digest: Self.digestOfABC, sending: Data("abc".utf8))
        #expect((try? good.get())?.lastPathComponent == "liar.bin")
        #expect(frames.contains(.resourceResult(transfer: Array(repeating: 7, count: 16), outcome: .saved, reason: nil)))
    }

    @Test("An offer whose name is a path out of the directory closes the link as malformed; nothing is offered or written")
    func pathNameIsMalformed() async throws {
        var configuration = SessionConfiguration()
        configuration.peerTimeout = .seconds(300)
        try await withTwoPeers(configuration: configuration) { peers async throws in
            let offers = EventLog(peers.host.events, .resourceOffered)
            let (raw, mallory) = try await peers.rawGuest()
            raw.send(.resourceOffer(.init(streamID: 1, transfer: Array(repeating: 1, count: 16), size: 3, digest: Self.digestOfABC, name: "../../.bashrc")))
            #expect(await eventually { raw.isClosed })
            let lost = await peers.hostStates.first { $0.peer == mallory && $0.state == .notConnected }
            guard case .lost(let error) = lost?.reason else {
                Issue.record("expected a lost peer, got \(String(describing: lost))")
                return
            }
            #expect(error.code == .malformedFrame)
            #expect(error.message.contains("a resource path that has a part “..” that starts with a dot"), "\(error.message)")
            #expect(offers.all.isEmpty)
        }
    }

    @Test("Offers past the stream limit are refused alone with a reset; the first ones are posted and the link goes on")
    func tooManyOffers() async throws {
        var configuration = SessionConfiguration()
        configuration.peerTimeout = .seconds(300)
        try await withTwoPeers(configuration: configuration) { peers async throws in
            let offers = EventLog(peers.host.events, .resourceOffered)
            let (raw, _) = try await peers.rawGuest()
            let limit = peers.host.configuration.maximumStreamsPerLink
            for index in 0..<(limit + 20) {
                raw.send(.resourceOffer(.init(
                    streamID: UInt32(2 * index + 1), transfer: Array(repeating: UInt8(index % 256), count: 16), size: 3, digest: Self.digestOfABC,
                    name: "file\(index).txt")))
            }
            #expect(await offers.count(atLeast: limit) { _ in true } == limit)
            let resets = { raw.receivedFrames.filter { if case .streamClose(_, .reset, let reason) = $0 { reason?.hasPrefix("too many open streams") == true } else { false } }.count }
            #expect(await eventually { resets() == 20 }, "\(resets()) resets")
            #expect(offers.all.count == limit)
            #expect(!raw.isClosed)
        }
    }
}

