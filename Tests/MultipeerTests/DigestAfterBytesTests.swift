import Crypto
import Foundation
import MultipeerPOSIX
import MultipeerTestSupport
import MultipeerTesting
import Testing

@testable import Multipeer

/// The SHA-256 after the bytes (feature bit 5, `docs/PROTOCOL.md` §3.9): the sender offers at
/// once and hashes as it sends, the receiver checks the SHA-256 that follows the last byte
/// before anything is put in place; an earlier peer still gets the SHA-256 in the offer. With
/// bit 6 on both sides what follows is the file's chunk root.
@Suite("Resources: the SHA-256 after the bytes", .timeLimit(.minutes(2)))
struct DigestAfterBytesTests {
    static let bytes = ResourceScenarios.bulk(100_000, seed: 5)
    static var digest: [UInt8] { Array(SHA256.hash(data: bytes)) }
    /// The chunk root of ``bytes``, folded here as `docs/PROTOCOL.md` §3.9 says: the SHA-256 of
    /// the SHA-256s of its 1 MiB chunks, one after another.
    static var root: [UInt8] { Self.chunkRoot(of: bytes) }
    /// Every feature of this release; those of the release before bit 6, and before bit 5.
    static let now = WireProtocol.features
    static let beforeRoot = WireProtocol.features & ~WireProtocol.Feature.chunkRootAfterBytes
    static let earlier = WireProtocol.features & ~WireProtocol.Feature.digestAfterBytes & ~WireProtocol.Feature.chunkRootAfterBytes

    static func chunkRoot(of bytes: Data) -> [UInt8] {
        var folded = SHA256()
        var at = bytes.startIndex
        while at < bytes.endIndex {
            let end = min(bytes.endIndex, at + (1 << 20))
            folded.update(data: Array(SHA256.hash(data: bytes[at..<end])))
            at = end
        }
        return Array(folded.finalize())
    }

    /// What a raw receiver announcing `features` gets when the host sends it the file: the
    /// offer, and the bytes of the stream once it accepts from 0.
    func rawReceive(features: UInt32) async throws -> (Frame.ResourceOffer, Data) {
        var offer: Frame.ResourceOffer?
        var stream = Data()
        try await withTwoPeers { peers async throws in
            let (raw, mallory) = try await peers.rawGuest(features: features)
            let source = try ResourceScenarios.file(named: "notes.bin", Self.bytes)
            let sending = try peers.host.sendResource(at: source, to: mallory)
            let frames = await raw.frames(until: { $0.contains { if case .resourceOffer = $0 { true } else { false } } }, before: .now + .seconds(20))
            guard case .resourceOffer(let offered) = frames.first(where: { if case .resourceOffer = $0 { true } else { false } }) else {
                throw TestFailure("no offer: \(frames)")
            }
            offer = offered
            raw.send(.resourceAnswer(transfer: offered.transfer, verdict: .accept, offset: 0, reason: nil))
            let ended = await raw.frames(until: { $0.contains { if case .streamClose(offered.streamID, .finished, _) = $0 { true } else { false } } }, before: .now + .seconds(20))
            for case .streamData(offered.streamID, let piece) in ended { stream.append(piece) }
            raw.send(.resourceResult(transfer: offered.transfer, outcome: .saved, reason: nil))
            try await sending.outcome()
        }
        return (try #require(offer), stream)
    }

    @Test("To a peer that announced bit 5 the offer goes before the file is read: its SHA-256 is 32 zero bytes, and the stream is the file's bytes, then their SHA-256")
    func senderPutsTheDigestAfterTheBytes() async throws {
        let (offer, stream) = try await rawReceive(features: Self.beforeRoot)
        #expect(offer.digest == Array(repeating: 0, count: 32) && offer.digestFollows)
        #expect(offer.size == UInt64(Self.bytes.count))
        #expect(stream == Self.bytes + Self.digest)
    }

    @Test("To a peer that announced bit 6 too, the 32 bytes after the file's are its chunk root, not its SHA-256")
    func senderPutsTheRootAfterTheBytes() async throws {
        let (offer, stream) = try await rawReceive(features: Self.now)
        #expect(offer.digestFollows && offer.size == UInt64(Self.bytes.count))
        #expect(Self.root != Self.digest)
        #expect(stream == Self.bytes + Self.root)
    }

    @Test("To a peer of the release before bit 5 nothing changes: the offer carries the file's SHA-256, and the stream the bytes alone")
    func earlierPeerGetsTheDigestInTheOffer() async throws {
        let (offer, stream) = try await rawReceive(features: Self.earlier)
        #expect(offer.digest == Self.digest && !offer.digestFollows)
        #expect(stream == Self.bytes)
    }

    /// What the host's session answers a raw sender announcing `features` that offers the file
    /// with `digest` and streams `payload`: the result's outcome and reason, and the names in
    /// the directory it accepted into.
    func rawSend(features: UInt32, digest: [UInt8], payload: Data) async throws -> (Frame.ResourceOutcome, String?, [String]) {
        var outcome: (Frame.ResourceOutcome, String?)?
        let inbox = try ResourceScenarios.emptyDirectory()
        try await withTwoPeers { peers async throws in
            let offers = EventLog(peers.host.events, .resourceOffered)
            let (raw, _) = try await peers.rawGuest(features: features)
            let transfer = [UInt8](repeating: 4, count: 16)
            raw.send(.resourceOffer(.init(streamID: 1, transfer: transfer, size: UInt64(Self.bytes.count), digest: digest, name: "notes.bin")))
            let offer = try #require(await offers.first { $0.name == "notes.bin" })
            #expect(offer.sha256 == (digest.allSatisfy { $0 == 0 } && features & WireProtocol.Feature.digestAfterBytes != 0 ? nil : Hex.encode(digest)))
            let receiving = try await offer.accept(into: inbox)
            var at = 0
            while at < payload.count {
                raw.send(.streamData(id: 1, bytes: payload[at..<min(payload.count, at + 16_384)]))
                at += 16_384
            }
            raw.send(.streamClose(id: 1, end: .finished, reason: nil))
            _ = try? await receiving.outcome()
            let frames = await raw.frames(until: { $0.contains { if case .resourceResult = $0 { true } else { false } } }, before: .now + .seconds(20))
            for case .resourceResult(transfer, let result, let reason) in frames { outcome = (result, reason) }
        }
        let (result, reason) = try #require(outcome)
        return (result, reason, ResourceScenarios.names(in: inbox))
    }

    @Test("A receiver checks the SHA-256 after the bytes before it puts anything in place: the right one saves the file; a wrong one, or none, fails it and leaves nothing")
    func receiverChecksTheDigestAfterTheBytes() async throws {
        let zero = Frame.ResourceOffer.digestAfterBytes
        let right = try await rawSend(features: Self.beforeRoot, digest: zero, payload: Self.bytes + Self.digest)
        #expect(right.0 == .saved && right.2 == ["notes.bin"])

        var wrongDigest = Self.digest
        wrongDigest[31] ^= 1
        let wrong = try await rawSend(features: Self.beforeRoot, digest: zero, payload: Self.bytes + wrongDigest)
        #expect(wrong.0 == .failed && wrong.1 == "its SHA-256 does not match the sender's, so it was changed on the way", "\(wrong)")
        #expect(wrong.2.isEmpty, "nothing placed, no partial file left")

        let none = try await rawSend(features: Self.beforeRoot, digest: zero, payload: Self.bytes)
        #expect(none.0 == .failed && none.1 == "its stream ended before the SHA-256 that follows its bytes", "\(none)")
        #expect(none.2.isEmpty)

        let more = try await rawSend(features: Self.beforeRoot, digest: zero, payload: Self.bytes + Self.digest + Data([1]))
        #expect(more.0 == .failed && more.2.isEmpty, "\(more)")

        // Without bit 5 on the link, 32 zero bytes are a SHA-256 like any other: the bytes alone
        // do not match it, and 32 bytes more are more than offered.
        let earlier = try await rawSend(features: Self.earlier, digest: zero, payload: Self.bytes + Self.digest)
        #expect(earlier.0 == .failed && earlier.2.isEmpty, "\(earlier)")
        let inOffer = try await rawSend(features: Self.earlier, digest: Self.digest, payload: Self.bytes)
        #expect(inOffer.0 == .saved && inOffer.2 == ["notes.bin"])
    }

    @Test("With bit 6 on the link the receiver checks the chunk root after the bytes: the root saves the file; the whole file's SHA-256 there, or a wrong root, fails it and leaves nothing; a SHA-256 in the offer is still checked as one")
    func receiverChecksTheRootAfterTheBytes() async throws {
        let zero = Frame.ResourceOffer.digestAfterBytes
        let right = try await rawSend(features: Self.now, digest: zero, payload: Self.bytes + Self.root)
        #expect(right.0 == .saved && right.2 == ["notes.bin"], "\(right)")

        let whole = try await rawSend(features: Self.now, digest: zero, payload: Self.bytes + Self.digest)
        #expect(whole.0 == .failed && whole.1 == "its SHA-256 does not match the sender's, so it was changed on the way", "\(whole)")
        #expect(whole.2.isEmpty, "nothing placed, no partial file left")

        var wrongRoot = Self.root
        wrongRoot[0] ^= 0x80
        let wrong = try await rawSend(features: Self.now, digest: zero, payload: Self.bytes + wrongRoot)
        #expect(wrong.0 == .failed && wrong.2.isEmpty, "\(wrong)")

        let inOffer = try await rawSend(features: Self.now, digest: Self.digest, payload: Self.bytes)
        #expect(inOffer.0 == .saved && inOffer.2 == ["notes.bin"], "\(inOffer)")
    }

    @Test("A sender that comes back as a release before bit 6 in the middle of a file: the receiver, which took the chunk root alone, reads the file back for the whole SHA-256 that now follows the bytes, and saves it")
    func senderOfAnEarlierReleaseMidTransfer() async throws {
        let inbox = try ResourceScenarios.emptyDirectory()
        try await withTwoPeers { peers async throws in
            let offers = EventLog(peers.host.events, .resourceOffered)
            let (first, mallory) = try await peers.rawGuest(features: Self.now)
            let transfer = [UInt8](repeating: 6, count: 16)
            let offer = Frame.ResourceOffer(
                streamID: 1, transfer: transfer, size: UInt64(Self.bytes.count), digest: Frame.ResourceOffer.digestAfterBytes, name: "notes.bin")
            first.send(.resourceOffer(offer))
            let receiving = try await #require(await offers.first { $0.name == "notes.bin" }).accept(into: inbox)
            #expect(await eventually { first.receivedFrames.contains(.resourceAnswer(transfer: transfer, verdict: .accept, offset: 0, reason: nil)) })
            first.send(.streamData(id: 1, bytes: Self.bytes[0..<40_000]))
            #expect(await eventually { receiving.arrivedBytes == 40_000 })
            first.close()  // a drop: the receiver waits for the transfer to be offered again

            let (second, _) = try await peers.rawGuest(features: Self.beforeRoot, named: mallory, incarnation: 2)
            second.send(.resourceOffer(offer))
            let answered = await second.frames(until: { $0.contains { if case .resourceAnswer = $0 { true } else { false } } }, before: .now + .seconds(20))
            guard case .resourceAnswer(transfer, .accept, let offset, _)? = answered.first(where: { if case .resourceAnswer = $0 { true } else { false } }) else {
                throw TestFailure("no accept: \(answered)")
            }
            // After a RESOURCE_HELD (what it holds) the stream starts with where the sender goes on from.
            let held = answered.contains { if case .resourceHeld = $0 { true } else { false } }
            #expect(held == (offset > 0))
            var payload = held ? Data((0..<8).map { UInt8(truncatingIfNeeded: offset >> (56 - 8 * UInt64($0))) }) : Data()
            payload += Self.bytes[Int(offset)...] + Self.digest
            var at = 0
            while at < payload.count {
                second.send(.streamData(id: 1, bytes: payload[at..<min(payload.count, at + 16_384)]))
                at += 16_384
            }
            second.send(.streamClose(id: 1, end: .finished, reason: nil))
            let saved = try await receiving.outcome()
            #expect(try Data(contentsOf: saved) == Self.bytes)
            #expect(await eventually { second.receivedFrames.contains(.resourceResult(transfer: transfer, outcome: .saved, reason: nil)) })
        }
    }

    @Test("A file of several chunks goes with its root between two sessions of this release, and a file saved so is answered saved when sent again unchanged")
    func severalChunksWithTheirRoot() async throws {
        try await withTwoPeers { peers async throws in
            try await peers.connect()
            let store = ResumeStore(directory: Scratch.path("state").appendingPathComponent("partials"))
            let inbox = try ResourceScenarios.emptyDirectory()
            let bytes = ResourceScenarios.bulk((3 << 20) + 12_345, seed: 9)
            let source = try ResourceScenarios.file(named: "film.mkv", bytes)
            let sending = try peers.guest.sendResource(at: source, to: peers.host.localPeer)
            let saved = try await ResourceScenarios(host: peers.host, guest: peers.guest).offer(named: "film.mkv").accept(into: inbox, keepingIn: store).outcome()
            try await sending.outcome()
            #expect(try Data(contentsOf: saved) == bytes)

            let again = try peers.guest.sendResource(at: source, to: peers.host.localPeer)
            let receiving = try await ResourceScenarios(host: peers.host, guest: peers.guest).offer(named: "film.mkv").accept(into: inbox, keepingIn: store)
            #expect(receiving.savedBefore)
            #expect(try await receiving.outcome() == saved)
            try await again.outcome()
            #expect(again.receiverHadIt && again.bytesSent == 0, "nothing sent twice")
            #expect(ResourceScenarios.names(in: inbox) == ["film.mkv"])
        }
    }

    @Test("Saved before, then changed at the sender under the same name and size: the receiver's claim of the saved file does not match, so the new bytes arrive whole and are saved beside it under a free name; the saved one is left as it was")
    func savedBeforeThenChanged() async throws {
        try await withTwoPeers { peers async throws in
            try await peers.connect()
            let store = ResumeStore(directory: Scratch.path("state").appendingPathComponent("partials"))
            let inbox = try ResourceScenarios.emptyDirectory()
            let first = ResourceScenarios.bulk(3 << 20, seed: 1)
            let source = try ResourceScenarios.file(named: "film.mkv", first)
            let scenarios = ResourceScenarios(host: peers.host, guest: peers.guest)
            let sending = try peers.guest.sendResource(at: source, to: peers.host.localPeer)
            let saved = try await scenarios.offer(named: "film.mkv").accept(into: inbox, keepingIn: store).outcome()
            try await sending.outcome()

            var changed = first
            changed[(2 << 20) + 7] ^= 0xFF
            try changed.write(to: source)
            let later = ResourceScenarios(host: peers.host, guest: peers.guest)
            let again = try peers.guest.sendResource(at: source, to: peers.host.localPeer)
            let receiving = try await later.offer(named: "film.mkv").accept(into: inbox, keepingIn: store)
            #expect(receiving.savedBefore, "the receiver holds a file of that name and size from that sender: the sender checks it")
            let second = try await receiving.outcome()
            try await again.outcome()
            #expect(again.heldDidNotMatch && !again.receiverHadIt)
            #expect(again.bytesSent == Int64(changed.count), "all of it went")
            #expect(second.lastPathComponent == "film (2).mkv")
            #expect(try Data(contentsOf: second) == changed)
            #expect(try Data(contentsOf: saved) == first, "the saved file is never overwritten")
            #expect(ResourceScenarios.names(in: inbox) == ["film (2).mkv", "film.mkv"], "no partial file is left")
        }
    }
}
