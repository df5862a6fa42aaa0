import Crypto
import Foundation
import MultipeerTestSupport
import MultipeerTesting
import Testing

@testable import Multipeer
@testable import MultipeerPOSIX

/// What a receiver keeps so that a transfer goes on after either program restarts: the chunk
/// hashes, the record that holds them, what a restarted receiver trusts of its partial file
/// (only what its hashes vouch for), and the sender's check of the receiver's claim.
@Suite("Resources after a restart: chunk hashes and the kept record", .timeLimit(.minutes(2)))
struct ResumeStoreTests {
    static let chunk = ChunkDigests.chunkBytes
    let peer = UUID()

    /// 3.5 chunks of bytes, and its SHA-256 in hex.
    static func content(seed: UInt8 = 3) -> Data {
        ResourceScenarios.bulk(3 * chunk + chunk / 2, seed: seed)
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// An offer of `bytes`, under a transfer id of its own (as every sender picks one).
    static func offer(_ bytes: Data, name: String = "film.mkv") -> Frame.ResourceOffer {
        Frame.ResourceOffer(streamID: 1, transfer: (0..<16).map { _ in UInt8.random(in: 0...255) }, size: UInt64(bytes.count), digest: Array(SHA256.hash(data: bytes)), name: name)
    }

    /// A store and a receiver's directory, empty.
    func places() throws -> (ResumeStore, URL) {
        (ResumeStore(directory: Scratch.path("state").appendingPathComponent("partials")), try ResourceScenarios.emptyDirectory())
    }

    /// Receives the first `count` bytes of `bytes` as a receiver with `store` would, and lets
    /// go as a killed program does (the record and partial file stay); `digestFollows`: offered
    /// by a sender whose SHA-256 follows the bytes.
    func receivePart(
        of bytes: Data, _ count: Int, store: ResumeStore, into inbox: URL, from sender: UUID? = nil, offering offered: Data? = nil, digestFollows: Bool = false
    ) throws -> ResourceStart {
        let start = try ResourceStart.open(Self.offer(offered ?? bytes), from: sender ?? peer, in: inbox, store: store, digestFollows: digestFollows)
        var digests = start.digests
        var at = 0
        while at < count {
            let piece = bytes[at..<min(count, at + 300_007)]
            try start.file?.write(Data(piece), at: UInt64(at))
            start.keeping?.record.append(digests.add(Data(piece)))
            at += piece.count
        }
        start.file?.keep()
        start.keeping?.keep()
        return start
    }

    @Test("Chunk hashes: one SHA-256 per 1 MiB chunk and the last short one, the same however the bytes come split; the whole file's digest is its SHA-256; the claim of a prefix folds its pieces")
    func chunkDigests() {
        let bytes = Self.content()
        let expected = stride(from: 0, to: bytes.count, by: Self.chunk).map { Array(SHA256.hash(data: bytes[$0..<min(bytes.count, $0 + Self.chunk)])) }
        for split in [1, 4096, 65_537, Self.chunk, Self.chunk + 1, bytes.count] {
            var digests = ChunkDigests(size: UInt64(bytes.count))
            var hashes: [[UInt8]] = []
            var at = 0
            while at < bytes.count {
                hashes += digests.add(Data(bytes[at..<min(bytes.count, at + split)]))
                at += split
            }
            #expect(hashes == expected, "split \(split)")
            #expect(digests.digest == Array(SHA256.hash(data: bytes)))
            #expect(digests.claim.pieces == 4 && digests.claim.root == ChunkDigests.root(of: expected))
        }
        var part = ChunkDigests(size: UInt64(bytes.count))
        _ = part.add(Data(bytes.prefix(Self.chunk + 10)))
        let tail = Array(SHA256.hash(data: bytes[Self.chunk..<(Self.chunk + 10)]))
        #expect(part.claim.pieces == 2 && part.claim.root == ChunkDigests.root(of: [expected[0], tail]))
    }

    @Test("A record keeps its header and whole hashes: one cut in the middle of a hash keeps those before it; a header that is not one, or of another chunk size, cannot be used")
    func recordDecoding() throws {
        let header = ResumeRecord.Header(peer: peer, directory: "/in", name: "a", size: 5, sha256: "00", partial: ".a.part", chunkBytes: Self.chunk)
        let record = ResumeRecord(header: header, hashes: [Array(repeating: 1, count: 32), Array(repeating: 2, count: 32)])
        let data = try record.encoded()
        #expect(try ResumeRecord.decode(data).hashes == record.hashes)
        #expect(try ResumeRecord.decode(data.dropLast(5)).hashes == [Array(repeating: 1, count: 32)])
        #expect(throws: ResumeRecord.RecordDamage.self) { try ResumeRecord.decode(Data("{\"version\":1,\"peer\":".utf8) + [0x0A]) }
        #expect(throws: ResumeRecord.RecordDamage.self) { try ResumeRecord.decode(Data(repeating: 0xFF, count: 100)) }
        var other = header
        other.chunkBytes = 4096
        #expect(throws: ResumeRecord.RecordDamage.self) { try ResumeRecord.decode(try ResumeRecord(header: other, hashes: []).encoded()) }
    }

    @Test("A receiver that restarts goes on from the whole chunks its record vouches for, checked against its partial file; the record and the store are its user's alone (0600, 0700)")
    func restoresWholeChunks() throws {
        let (store, inbox) = try places()
        let bytes = Self.content()
        let first = try receivePart(of: bytes, 2 * Self.chunk + 5000, store: store, into: inbox)
        #expect(first.keeping != nil && first.note == nil)
        let key = try #require(first.keeping?.key)
        #expect(try FileManager.default.attributesOfItem(atPath: store.url(of: key).path)[.posixPermissions] as? Int == 0o600)
        #expect(try FileManager.default.attributesOfItem(atPath: store.directory.path)[.posixPermissions] as? Int == 0o700)

        let again = try ResourceStart.open(Self.offer(bytes), from: peer, in: inbox, store: store)
        #expect(again.digests.count == UInt64(2 * Self.chunk), "the bytes past the last whole chunk are not trusted")
        #expect(again.note == nil && again.saved == nil)
        var digests = again.digests
        _ = digests.add(Data(bytes.dropFirst(2 * Self.chunk)))
        #expect(digests.digest == Array(SHA256.hash(data: bytes)), "the whole file's hash goes on from the kept bytes")
        again.file?.discard()
        again.keeping?.remove()
    }

    @Test("A record marked saved is rewritten in its own file (the same inode, still 0600, no file made beside it): read back, it names the saved file and keeps every chunk hash")
    func savedInPlace() throws {
        let (store, inbox) = try places()
        let bytes = Self.content()
        let start = try ResourceStart.open(Self.offer(bytes), from: peer, in: inbox, store: store)
        let keeping = try #require(start.keeping)
        var digests = start.digests
        try start.file?.write(bytes, at: 0)
        keeping.record.append(digests.add(bytes))
        let url = store.url(of: keeping.key)
        let inode = try #require(FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? UInt64)
        keeping.saved(as: inbox.appendingPathComponent("film.mkv"), digest: try #require(digests.digest), root: false)
        #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? UInt64 == inode, "rewritten in place")
        #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory.path) == [url.lastPathComponent], "no file made beside it")
        let record = try #require(try store.load(keeping.key))
        #expect(record.header.saved == "film.mkv" && record.header.sha256 == Self.hex(SHA256.hash(data: bytes)) && record.header.root == nil)
        #expect(record.hashes.count == 4 && ChunkDigests.root(of: record.hashes) == digests.claim.root)
        start.file?.discard()
        keeping.remove()
    }

    @Test("A file saved with its chunk root in the record is found saved again by a re-offer of either kind: one whose root follows the bytes, one whose whole SHA-256 does (a sender of the release before bit 6), each given the digest it is checked against")
    func savedWithItsRoot() async throws {
        let (store, inbox) = try places()
        let bytes = Self.content()
        let offer = Self.offer(bytes)
        let zeroOffer = Frame.ResourceOffer(streamID: 1, transfer: offer.transfer, size: offer.size, digest: Frame.ResourceOffer.digestAfterBytes, name: offer.name)
        let start = try ResourceStart.open(zeroOffer, from: peer, in: inbox, store: store, digestFollows: true, rootFollows: true)
        let keeping = try #require(start.keeping)
        var digests = start.digests
        #expect(!digests.hashesWhole && digests.digest == nil, "with the root after the bytes the whole file is not hashed")
        try start.file?.write(bytes, at: 0)
        keeping.record.append(digests.add(bytes))
        let root = try #require(digests.digest(root: true))
        let file = try #require(start.file)
        let saved = try await file.place { url in keeping.saved(as: url, digest: root, root: true) }
        #expect(try store.load(keeping.key)?.header.root == true)

        for rootFollows in [true, false] {
            let again = try ResourceStart.open(zeroOffer, from: peer, in: inbox, store: store, digestFollows: true, rootFollows: rootFollows)
            #expect(again.saved == saved, "answered saved (rootFollows: \(rootFollows))")
            #expect(again.digests.digest(root: true) == root)
            #expect(again.digests.digest(root: false) == Array(SHA256.hash(data: bytes)), "the whole SHA-256 is there for a sender that sends it")
            again.file?.discard()
        }
    }

    @Test("A partial file damaged in its second chunk goes on from the first; one cut short goes on from its last whole chunk; one that is gone starts over; each said in a sentence")
    func damagedOrTruncatedPartial() throws {
        let (store, inbox) = try places()
        let bytes = Self.content()
        let kept = try receivePart(of: bytes, 3 * Self.chunk, store: store, into: inbox)
        let partial = try #require(kept.file?.temporary)

        let handle = try FileHandle(forUpdating: partial)
        try handle.seek(toOffset: UInt64(Self.chunk + 10))
        handle.write(Data([0xAA ^ bytes[Self.chunk + 10]]))
        try handle.close()
        let damaged = try ResourceStart.open(Self.offer(bytes), from: peer, in: inbox, store: store)
        #expect(damaged.digests.count == UInt64(Self.chunk))
        #expect(damaged.note?.contains("does not match its chunks' SHA-256 after 1048576 bytes; it goes on from there") == true, "\(damaged.note ?? "")")
        damaged.file?.keep()
        damaged.keeping?.keep()

        try FileHandle(forUpdating: partial).truncate(atOffset: UInt64(Self.chunk / 2))
        let truncated = try ResourceStart.open(Self.offer(bytes), from: peer, in: inbox, store: store)
        #expect(truncated.digests.count == 0)
        truncated.file?.keep()
        truncated.keeping?.keep()

        try FileManager.default.removeItem(at: partial)
        let gone = try ResourceStart.open(Self.offer(bytes), from: peer, in: inbox, store: store)
        #expect(gone.digests.count == 0)
        #expect(gone.note == "The partial file of “film.mkv” kept from before is gone; it starts over.")
        gone.file?.discard()
        gone.keeping?.remove()
    }

    @Test("A record that cannot be read (garbage, a header cut short) is said in a sentence and replaced: the file starts over, nothing crashes")
    func damagedRecord() throws {
        let (store, inbox) = try places()
        let bytes = Self.content()
        let kept = try receivePart(of: bytes, 2 * Self.chunk, store: store, into: inbox)
        let key = try #require(kept.keeping?.key)
        for garbage in [Data(repeating: 0x7B, count: 40), Data("{\"version\":1}\n".utf8), Data()] {
            try garbage.write(to: store.url(of: key))
            let start = try ResourceStart.open(Self.offer(bytes), from: peer, in: inbox, store: store)
            #expect(start.digests.count == 0)
            #expect(start.note?.hasPrefix("What was kept of “film.mkv” from before cannot be used (its record: ") == true, "\(start.note ?? "")")
            #expect(start.keeping != nil, "a new record replaces it")
            start.file?.discard()
            start.keeping?.keep()
        }
    }

    @Test("A changed source file (other bytes, so another SHA-256) is another transfer: it starts from nothing, and what was kept of the old one stays for its own sender")
    func changedSource() throws {
        let (store, inbox) = try places()
        let bytes = Self.content()
        _ = try receivePart(of: bytes, 2 * Self.chunk, store: store, into: inbox)
        var changed = bytes
        changed[10] ^= 0xFF
        let start = try ResourceStart.open(Self.offer(changed), from: peer, in: inbox, store: store)
        #expect(start.digests.count == 0 && start.note == nil)
        let other = try ResourceStart.open(Self.offer(bytes), from: UUID(), in: inbox, store: store)
        #expect(other.digests.count == 0, "another sender's offer of the same file does not take what was kept")
        #expect(try ResourceStart.open(Self.offer(bytes), from: peer, in: inbox, store: store).digests.count == UInt64(2 * Self.chunk))
    }

    @Test("The sender checks the receiver's claim against its own file: the claim of its own bytes holds; one of other bytes, or of another length than the offset, does not")
    func senderChecksClaim() throws {
        let bytes = Self.content()
        let source = try SourceFile(try ResourceScenarios.file(named: "film.mkv", bytes))
        var digests = ChunkDigests(size: UInt64(bytes.count))
        _ = digests.add(Data(bytes.prefix(2 * Self.chunk + 77)))
        let claim = digests.claim
        let held = Frame.ResourceHeld(transfer: [], chunkBytes: UInt32(Self.chunk), chunks: claim.pieces, root: claim.root)
        #expect(try source.holds(held, upTo: UInt64(2 * Self.chunk + 77)))
        #expect(try !source.holds(held, upTo: UInt64(2 * Self.chunk)), "the offset is not the claim's")
        #expect(try !source.holds(held, upTo: UInt64(3 * Self.chunk + 77)))
        var other = bytes
        other[Self.chunk + 1] ^= 1
        var otherDigests = ChunkDigests(size: UInt64(bytes.count))
        _ = otherDigests.add(Data(other.prefix(2 * Self.chunk + 77)))
        let wrong = Frame.ResourceHeld(transfer: [], chunkBytes: UInt32(Self.chunk), chunks: otherDigests.claim.pieces, root: otherDigests.claim.root)
        #expect(try !source.holds(wrong, upTo: UInt64(2 * Self.chunk + 77)))
        #expect(try !source.holds(Frame.ResourceHeld(transfer: [], chunkBytes: 1, chunks: 1, root: claim.root), upTo: 1), "absurd chunk sizes are refused")
    }

    @Test("What is kept is bounded: records older than the store's age are removed with their partial files; newer ones and those in use stay")
    func pruning() throws {
        let (store, inbox) = try places()
        let bytes = Self.content()
        let old = try receivePart(of: bytes, Self.chunk, store: store, into: inbox)
        let partial = try #require(old.file?.temporary)
        let fresh = try receivePart(of: Self.content(seed: 4), Self.chunk, store: store, into: inbox)
        let oldKey = try #require(old.keeping?.key)
        let dayAgo = Date().addingTimeInterval(-25 * 3600)
        try FileManager.default.setAttributes([.modificationDate: dayAgo], ofItemAtPath: store.url(of: oldKey).path)
        #expect(store.prune() == 1)
        #expect(!FileManager.default.fileExists(atPath: partial.path), "its partial file went with it")
        #expect(!FileManager.default.fileExists(atPath: store.url(of: oldKey).path))
        #expect(FileManager.default.fileExists(atPath: try #require(fresh.file?.temporary).path))
        #expect(store.prune() == 0)
    }

    /// Where a file's digest goes: its chunk root after the bytes (this release), its SHA-256
    /// after them (a release before ``WireProtocol/Feature/chunkRootAfterBytes``), or its
    /// SHA-256 in the offer (before ``WireProtocol/Feature/digestAfterBytes``).
    enum DigestPlace: String, CaseIterable, Sendable {
        case rootAfterBytes, afterBytes, inOffer

        var follows: Bool { self != .inOffer }
    }

    /// Sessions whose digest goes at `place`.
    static func configuration(_ place: DigestPlace) -> SessionConfiguration {
        var configuration = SessionConfiguration()
        if place != .rootAfterBytes { configuration.features &= ~WireProtocol.Feature.chunkRootAfterBytes }
        if place == .inOffer { configuration.features &= ~WireProtocol.Feature.digestAfterBytes }
        return configuration
    }

    @Test("Over a session: a receiver that restarted goes on from what it kept, the sender checks it and sends only the rest, and the file arrives whole; sent again once saved, it is answered saved without its bytes (the chunk root or the SHA-256 after the bytes, and in the offer as with an earlier peer)", arguments: DigestPlace.allCases)
    func goesOnOverASession(place: DigestPlace) async throws {
        try await withTwoPeers(configuration: Self.configuration(place)) { peers async throws in
            let scenarios = ResourceScenarios(host: peers.host, guest: peers.guest)
            try await peers.connect()
            let (store, inbox) = try places()
            let bytes = Self.content()
            let source = try ResourceScenarios.file(named: "film.mkv", bytes)
            _ = try receivePart(of: bytes, 2 * Self.chunk + 5000, store: store, into: inbox, from: peers.guest.localPeer.identity, digestFollows: place.follows)

            let sending = try peers.guest.sendResource(at: source, to: peers.host.localPeer)
            let receiving = try await scenarios.offer(named: "film.mkv").accept(into: inbox, keepingIn: store)
            #expect(receiving.keptBytes == Int64(2 * Self.chunk))
            let saved = try await receiving.outcome()
            try await sending.outcome()
            #expect(try Data(contentsOf: saved) == bytes)
            #expect(sending.bytesSent == Int64(bytes.count - 2 * Self.chunk), "only the rest went")
            #expect(!sending.heldDidNotMatch && sending.lastStart.offset == Int64(2 * Self.chunk))
            #expect(ResourceScenarios.names(in: inbox) == ["film.mkv"])

            let later = ResourceScenarios(host: peers.host, guest: peers.guest)  // sees the offers from now on
            let again = try peers.guest.sendResource(at: source, to: peers.host.localPeer)
            let second = try await later.offer(named: "film.mkv").accept(into: inbox, keepingIn: store)
            #expect(second.savedBefore)
            #expect(try await second.outcome() == saved)
            try await again.outcome()
            #expect(again.bytesSent == 0 && again.receiverHadIt)
            #expect(ResourceScenarios.names(in: inbox) == ["film.mkv"], "no second copy")
        }
    }

    @Test("Over a session: what the receiver holds checks against its own hashes but is not the sender's file: the sender finds out by the chunks' SHA-256, it starts over from 0, and the file arrives whole (the chunk root or the SHA-256 after the bytes, and in the offer)", arguments: DigestPlace.allCases)
    func heldBytesThatAreNotTheFile(place: DigestPlace) async throws {
        try await withTwoPeers(configuration: Self.configuration(place)) { peers async throws in
            let scenarios = ResourceScenarios(host: peers.host, guest: peers.guest)
            try await peers.connect()
            let (store, inbox) = try places()
            let bytes = Self.content()
            let source = try ResourceScenarios.file(named: "film.mkv", bytes)
            _ = try receivePart(
                of: Self.content(seed: 99), 2 * Self.chunk, store: store, into: inbox, from: peers.guest.localPeer.identity, offering: bytes, digestFollows: place.follows)

            let sending = try peers.guest.sendResource(at: source, to: peers.host.localPeer)
            let receiving = try await scenarios.offer(named: "film.mkv").accept(into: inbox, keepingIn: store)
            #expect(receiving.keptBytes == Int64(2 * Self.chunk), "its own hashes vouch for it")
            let saved = try await receiving.outcome()
            try await sending.outcome()
            #expect(try Data(contentsOf: saved) == bytes)
            #expect(sending.heldDidNotMatch)
            #expect(sending.bytesSent == Int64(bytes.count), "everything went")
            #expect(receiving.resentBytes == Int64(2 * Self.chunk))
        }
    }

    @Test("Over a session: the receiver stops keeping what arrived (as a drop box on Ctrl-C): the sender is told it is kept, the partial file and record stay, and the same file sent again goes on from there and arrives whole")
    func stopKeepingWhatArrived() async throws {
        try await withTwoPeers { peers async throws in
            let scenarios = ResourceScenarios(host: peers.host, guest: peers.guest)
            try await peers.connect()
            let (store, inbox) = try places()
            let bytes = ResourceScenarios.bulk(48 << 20, seed: 8)
            let source = try ResourceScenarios.file(named: "film.mkv", bytes)
            let sending = try peers.guest.sendResource(at: source, to: peers.host.localPeer)
            let receiving = try await scenarios.offer(named: "film.mkv").accept(into: inbox, keepingIn: store)
            #expect(await eventually { receiving.progress.completedBytes >= Int64(3 * Self.chunk) })
            #expect(receiving.stopKeeping())
            #expect(!receiving.stopKeeping(), "once")
            do throws(MultipeerError) {
                _ = try await receiving.outcome()
                Issue.record("it was saved")
            } catch {
                #expect(error.code == .cancelled && error.message == "“film.mkv” stopped here; what arrived is kept for 24 h, and sending it again goes on from there.", "\(error.message)")
            }
            do throws(MultipeerError) {
                try await sending.outcome()
                Issue.record("the sender saw it saved")
            } catch {
                #expect(error.message == "“film.mkv” was not saved: alice stopped receiving; what arrived is kept, and sending it again goes on from there.", "\(error.message)")
            }
            #expect(ResourceScenarios.names(in: inbox).count == 1 && ResourceScenarios.names(in: inbox)[0].hasSuffix(".part"), "the partial file stays")

            let later = ResourceScenarios(host: peers.host, guest: peers.guest)
            let again = try peers.guest.sendResource(at: source, to: peers.host.localPeer)
            let resumed = try await later.offer(named: "film.mkv").accept(into: inbox, keepingIn: store)
            #expect(resumed.keptBytes >= Int64(3 * Self.chunk))
            let saved = try await resumed.outcome()
            try await again.outcome()
            #expect(try Data(contentsOf: saved) == bytes)
            #expect(again.bytesSent == Int64(bytes.count) - resumed.keptBytes, "only the rest went")
            #expect(ResourceScenarios.names(in: inbox) == ["film.mkv"])
        }
    }

    @Test("A resource's stream window grows to at most 1 % of the file less a write batch (never below the initial window), so that a killed receiver loses at most 1 % on the way: 415 KiB for 64 MiB, the 4 MiB of a bulk receiver for 1 GiB, 256 KiB for a small file")
    func resourceWindowIsBoundedByTheFile() {
        let bulk = SessionConfiguration.bulkTransfer
        #expect(Session.resourceWindow(size: 64 << 20, configuration: bulk) == (64 << 20) / 100 - 256 * 1024)
        #expect(Session.resourceWindow(size: 1 << 30, configuration: bulk) == 4 << 20)
        #expect(Session.resourceWindow(size: 1 << 20, configuration: bulk) == 256 * 1024)
        #expect(Session.resourceWindow(size: 1 << 30, configuration: SessionConfiguration()) == 256 * 1024, "no growth where the configuration has none")
        for size: UInt64 in [64 << 20, 200 << 20, 1 << 30] {
            let window = Session.resourceWindow(size: size, configuration: bulk)
            #expect(UInt64(window + ResourceReceiving.batchBytes) <= size / 100, "\(size): on the way and unwritten within 1 %")
        }
    }

    @Test("RESOURCE_HELD on the wire: 0x11, transfer, chunk size, chunks, root, byte for byte; cut short, with a byte after its root, or of chunks of 0 bytes, it is malformed")
    func heldFrame() throws {
        let held = Frame.ResourceHeld(transfer: Array(repeating: 7, count: 16), chunkBytes: 1 << 20, chunks: 3, root: Array(repeating: 0xAB, count: 32))
        let bytes = FrameCodec.encode(.resourceHeld(held)).bytes
        let hex = Self.hex(bytes)
        #expect(hex == "0000003d11" + String(repeating: "07", count: 16) + "00100000" + "0000000000000003" + String(repeating: "ab", count: 32))
        var decoder = FrameDecoder()
        decoder.append(bytes)
        #expect(try decoder.nextFrame() == .resourceHeld(held))
        for wrong in [Array(bytes.dropLast()), Array(bytes) + [0], Array(FrameCodec.encode(.resourceHeld(.init(transfer: held.transfer, chunkBytes: 0, chunks: 0, root: held.root))).bytes)] {
            var framed = wrong
            let length = UInt32(framed.count - 4)
            framed.replaceSubrange(0..<4, with: [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)])
            var decoder = FrameDecoder()
            decoder.append(framed)
            #expect(throws: MultipeerError.self) { try decoder.nextFrame() }
        }
    }
}
