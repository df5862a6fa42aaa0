import Foundation
import Multipeer
import Testing

@Suite("A connection's message types, each decoded once", .timeLimit(.minutes(1)))
struct MessageTypeNamesTests {
    /// The DATA frames of `types`, in order, each carrying its index as its payload.
    static func stream(of types: [String?]) -> [UInt8] {
        types.enumerated().flatMap { index, type in
            (try? FrameCodec.encodeData(Data([UInt8(index % 256)]), messageType: type, maximumFrameLength: 1 << 16).bytes) ?? []
        }
    }

    static func decode(_ bytes: [UInt8]) throws -> [Frame] {
        var decoder = FrameDecoder()
        decoder.append(bytes)
        var frames: [Frame] = []
        while let frame = try decoder.nextFrame() { frames.append(frame) }
        return frames
    }

    @Test("Frames of more types than are kept, interleaved and repeated, each come out with their own type and payload")
    func manyTypes() throws {
        // Twice as many types as are kept, so that kept names are replaced while others repeat.
        let names = (0..<(2 * MessageTypeNames.capacity)).map { "game.v1.type\($0)" }
        var types: [String?] = []
        for round in 0..<5 {
            for (index, name) in names.enumerated() where (index + round) % 3 != 0 { types.append(name) }
            types.append(names[round])  // a kept one, again
            types.append(nil)  // raw bytes: no type
        }
        let frames = try Self.decode(Self.stream(of: types))
        #expect(frames.count == types.count)
        for (index, (frame, type)) in zip(frames, types).enumerated() {
            #expect(frame == .data(messageType: type, payload: Data([UInt8(index % 256)])))
        }
    }

    @Test("A type that differs from a kept one in its last byte, or is a prefix of it, is not taken for it")
    func nearNames() throws {
        let types: [String?] = ["guessnum.v1.guess", "guessnum.v1.guest", "guessnum.v1.gues", "guessnum.v1.guess", "guessnum.v1.guessX", "ü", "u"]
        let frames = try Self.decode(Self.stream(of: types))
        #expect(frames.map { frame -> String? in
            guard case .data(let type, _) = frame else { return "not data" }
            return type
        } == types)
    }

    @Test("A type that is not UTF-8 is refused even after frames of kept types")
    func invalidAfterKept() throws {
        var bytes = Self.stream(of: ["chat", "chat"])
        // A DATA frame of type 0xFF 0xFE (not UTF-8) and an empty payload.
        bytes += [0, 0, 0, 4, 0x04, 2, 0xFF, 0xFE]
        var decoder = FrameDecoder()
        decoder.append(bytes)
        #expect(try decoder.nextFrame() == .data(messageType: "chat", payload: Data([0])))
        #expect(try decoder.nextFrame() == .data(messageType: "chat", payload: Data([1])))
        #expect(throws: MultipeerError.self) { try decoder.nextFrame() }
    }
}
