import Foundation
import Multipeer
import Testing

@Suite("The payload a typed message may carry within a frame length", .timeLimit(.minutes(1)))
struct PayloadLimitTests {
    @Test("A payload of exactly the limit encodes, passes a decoder held to that frame length and decodes; one byte more is messageTooLarge",
          arguments: [("history", 65_536), ("welcome", 1_024), ("é", 300), ("", 64)])
    func limitAgainstTheEncoder(type: String, maximumFrameLength: Int) throws {
        let messageType: String? = type.isEmpty ? nil : type
        let limit = FrameCodec.maximumPayloadLength(messageType: messageType, maximumFrameLength: maximumFrameLength)
        #expect(limit == maximumFrameLength - 2 - type.utf8.count)

        let payload = Data((0..<limit).map { UInt8(truncatingIfNeeded: $0) })
        let frame = try FrameCodec.encodeData(payload, messageType: messageType, maximumFrameLength: maximumFrameLength)
        #expect(frame.frameLength == maximumFrameLength, "the limit fills the frame to the byte")
        var decoder = FrameDecoder(maximumFrameLength: maximumFrameLength)
        decoder.append(frame.bytes[...])
        #expect(try decoder.nextFrame() == .data(messageType: messageType, payload: payload))

        let error = #expect(throws: MultipeerError.self) {
            _ = try FrameCodec.encodeData(payload + [0], messageType: messageType, maximumFrameLength: maximumFrameLength)
        }
        #expect(error?.code == .messageTooLarge)
        #expect(error == .messageTooLarge(maximumFrameLength + 1, limit: maximumFrameLength))
    }

    @Test("A frame length too small for even the type leaves no payload, and an empty payload is refused")
    func tooSmallForTheType() {
        #expect(FrameCodec.maximumPayloadLength(messageType: "history", maximumFrameLength: 8) == 0)
        #expect(FrameCodec.maximumPayloadLength(messageType: "history", maximumFrameLength: 4) == 0)
        #expect(throws: MultipeerError.messageTooLarge(9, limit: 8)) {
            _ = try FrameCodec.encodeData(Data(), messageType: "history", maximumFrameLength: 8)
        }
    }
}
