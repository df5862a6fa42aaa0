import Foundation
import Multipeer
import MultipeerTestSupport
import Rooms
import Testing

@Suite("Frames: encoding and the streaming decoder", .timeLimit(.minutes(1)))
struct FrameCodecTests {
    static let frames = SampleFrames.all
    static var stream: [UInt8] { SampleFrames.stream }

    func decodeAll(_ chunks: [ArraySlice<UInt8>]) throws -> [Frame] {
        var decoder = FrameDecoder()
        var frames: [Frame] = []
        for chunk in chunks {
            decoder.append(chunk)
            while let frame = try decoder.nextFrame() { frames.append(frame) }
        }
        #expect(decoder.bufferedByteCount == 0)
        return frames
    }

    @Test("Every frame kind survives a round trip, identities and names included")
    func roundTrip() throws {
        let decoded = try decodeAll([Self.stream[...]])
        #expect(decoded == Self.frames)
        guard case .accept(let accept) = decoded[2] else { Issue.record("not an accept"); return }
        #expect(accept.peer.displayName == "Grace ✨")
    }

    @Test("The worked example of PROTOCOL.md §11, byte for byte: HELLO, ACCEPT, REVEAL, RESUME and ACKNOWLEDGE of version 3; version 1 and 2 HELLOs still decode")
    func workedExample() throws {
        let bob = try PeerID(displayName: "bob", identity: UUID(uuidString: "00112233-4455-6677-8899-aabbccddeeff")!)
        let alice = try PeerID(displayName: "alice", identity: UUID(uuidString: "ffeeddcc-bbaa-9988-7766-554433221100")!)
        let bobsNonce = [UInt8](repeating: 1, count: 32)
        let alicesNonce = [UInt8](repeating: 2, count: 32)
        let hello = FrameCodec.encode(.hello(.init(
            peer: bob, invitationTimeoutMilliseconds: 30_000, codeCommitment: VerificationCode.commitment(to: bobsNonce), context: Data())))
        #expect(Self.hex(hello.bytes) == "0000004301" + "474e4d50" + "0003" + "00112233445566778899aabbccddeeff" + "03626f62" + "00007530"
            + "812e4a4a91f3845dd50773311a2bea6e85571e5161e4aa1d9505d2cf2a33b428" + "0000007f")
        let accept = FrameCodec.encode(.accept(.init(peer: alice, codeNonce: alicesNonce)))
        #expect(Self.hex(accept.bytes) == "0000004102" + "474e4d50" + "0003" + "ffeeddccbbaa99887766554433221100" + "05616c696365"
            + String(repeating: "02", count: 32) + "0000007f")
        #expect(Self.hex(FrameCodec.encode(.streamOpen(id: 1, name: "timer")).bytes) == "0000000a08" + "00000001" + "74696d6572")
        #expect(Self.hex(FrameCodec.encode(.streamData(id: 1, bytes: Data([0xAB, 0xCD]))).bytes) == "0000000709" + "00000001" + "abcd")
        #expect(Self.hex(FrameCodec.encode(.streamWindow(id: 1, credit: 65_536)).bytes) == "000000090a" + "00000001" + "00010000")
        #expect(Self.hex(FrameCodec.encode(.streamClose(id: 1, end: .finished, reason: nil)).bytes) == "000000060b" + "00000001" + "00")
        #expect(Self.hex(FrameCodec.encode(.reveal(nonce: bobsNonce)).bytes) == "0000002107" + String(repeating: "01", count: 32))
        #expect(Self.hex(FrameCodec.encode(.resume(.init(incarnation: 0x0102_0304_0506_0708, knownIncarnation: 0, received: 3))).bytes)
            == "000000190f" + "0102030405060708" + "0000000000000000" + "0000000000000003")
        #expect(Self.hex(FrameCodec.encode(.acknowledge(received: 3)).bytes) == "0000000910" + "0000000000000003")

        // What an older release sends: version 1, no commitment. It decodes, to be declined politely.
        let old: [UInt8] = [0x01] + Array("GNMP".utf8) + [0, 1] + Self.bytes(of: bob.identity)
            + [3] + Array("bob".utf8) + [0, 0, 0x75, 0x30]
        #expect(try FrameCodec.decode(old) == .hello(.init(
            version: 1, peer: bob, invitationTimeoutMilliseconds: 30_000, codeCommitment: [], features: 0, context: Data())))
        // What the release before streams sends: version 2, no features; its last bytes are context.
        let two: [UInt8] = [0x01] + Array("GNMP".utf8) + [0, 2] + Self.bytes(of: bob.identity)
            + [3] + Array("bob".utf8) + [0, 0, 0x75, 0x30] + VerificationCode.commitment(to: bobsNonce) + [0x7B, 0x7D]
        #expect(try FrameCodec.decode(two) == .hello(.init(
            version: 2, peer: bob, invitationTimeoutMilliseconds: 30_000, codeCommitment: VerificationCode.commitment(to: bobsNonce), features: 0,
            context: Data("{}".utf8))))
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    static func bytes(of uuid: UUID) -> [UInt8] { withUnsafeBytes(of: uuid.uuid) { Array($0) } }

    @Test("A DATA frame encoded by encodeData is the same bytes as encode(.data), whatever its type and payload (a slice included)")
    func dataFramesEncodeAlike() throws {
        let sliced = Data([9, 8, 7, 6, 5, 4])[2...]
        for (type, payload) in [("t", Data()), ("guessnum.v1.guess", Data(#"{"guess":42}"#.utf8)), (String(repeating: "é", count: 127), Data(repeating: 0xAB, count: 70_000))]
            + [(nil, Data([1, 2, 3])), ("type", sliced)] as [(String?, Data)] {
            let fast = try FrameCodec.encodeData(payload, messageType: type, maximumFrameLength: 1 << 20)
            #expect(fast == FrameCodec.encode(.data(messageType: type, payload: payload)))
        }
    }

    @Test("A stream's default chunk and its frame fill 16 KiB, one TLS record's most, and no more")
    func streamChunkFillsOneRecord() {
        let chunk = Data(repeating: 7, count: SessionConfiguration().streamChunkLength)
        #expect(FrameCodec.encode(.streamData(id: 1, bytes: chunk)).bytes.count == 16 * 1024)
    }

    @Test("A stream split at every point, or fed one byte at a time, decodes to the same frames")
    func everyChunking() throws {
        for (name, chunks) in SampleFrames.chunkings {
            #expect(try decodeAll(chunks) == Self.frames, "\(name)")
        }
    }

    @Test("A truncated frame yields nothing until the rest arrives")
    func truncated() throws {
        let bytes = FrameCodec.encode(.goodbye(reason: "see you")).bytes
        var decoder = FrameDecoder()
        decoder.append(bytes.dropLast())
        #expect(try decoder.nextFrame() == nil)
        decoder.append(bytes.suffix(1))
        #expect(try decoder.nextFrame() == .goodbye(reason: "see you"))
    }

    @Test("An oversized length prefix is refused as soon as the prefix is read")
    func oversized() {
        var decoder = FrameDecoder(maximumFrameLength: 64 * 1024)
        decoder.append([0xFF, 0xFF, 0xFF, 0xF0])
        #expect(decoder.bufferedByteCount == 4)
        #expect(throws: MultipeerError.self) { try decoder.nextFrame() }
        do { _ = try decoder.nextFrame() } catch { #expect(error.code == .frameTooLarge) }
        var limit = FrameDecoder(maximumFrameLength: 10)
        limit.append([0, 0, 0, 11])
        #expect(throws: MultipeerError.self) { try limit.nextFrame() }
    }

    @Test("Garbage is a malformed-frame error", arguments: SampleFrames.malformed.map(\.bytes))
    func garbage(bytes: [UInt8]) {
        var decoder = FrameDecoder()
        decoder.append(bytes)
        let error = #expect(throws: MultipeerError.self, "\(bytes)") { try decoder.nextFrame() }
        #expect(error?.code == .malformedFrame)
    }

    @Test("Random bytes decode to frames that re-encode to themselves, or to a decoding error, never a crash")
    func fuzz() throws {
        var generator = SplitMix64(seed: 0x6775_6573_736E_756D)  // fixed: a failure replays
        let limit = 1024  // above every sample frame
        var decodedFrames = 0
        var errors = 0
        for round in 0..<5000 {
            // Half the inputs start with a valid frame of random kind so that decoding gets past
            // the length prefix; the rest are noise.
            var bytes: [UInt8] = []
            if round.isMultiple(of: 2) {
                bytes += FrameCodec.encode(Self.frames[Int.random(in: 0..<Self.frames.count, using: &generator)]).bytes
            }
            bytes += (0..<Int.random(in: 1...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var decoder = FrameDecoder(maximumFrameLength: limit)
            decoder.append(bytes)
            var consumed = 0
            decoding: while true {
                do {
                    guard let frame = try decoder.nextFrame() else { break decoding }
                    // What was decoded is exactly what the next bytes encode.
                    let encoded = FrameCodec.encode(frame).bytes
                    try #require(Array(bytes[consumed..<min(bytes.count, consumed + encoded.count)]) == encoded, "round \(round): \(bytes)")
                    consumed += encoded.count
                    decodedFrames += 1
                } catch let error as MultipeerError {
                    try #require([.malformedFrame, .frameTooLarge].contains(error.code), "round \(round): \(error)")
                    errors += 1
                    break decoding
                }
            }
            if consumed == bytes.count { #expect(decoder.bufferedByteCount == 0) }
        }
        // The inputs exercised both paths.
        #expect(decodedFrames >= 2500)
        #expect(errors > 100)
    }
}
