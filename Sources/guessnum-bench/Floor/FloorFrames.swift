import NIOCore

/// The connections floor's frames: a 4-byte length, a kind, padding to the size of the game's
/// frame it stands for (a guess, a verdict, a history batch). Nothing is encoded or decoded but
/// the length and the kind: the floor costs what moving those bytes costs.
enum FloorFrame {
    /// A guess's answer.
    static let reply: UInt8 = 1
    /// A tick's broadcast.
    static let broadcast: UInt8 = 2

    /// A frame of `kind`, `bytes` long in all (at least 5).
    static func make(_ kind: UInt8, bytes: Int) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeInteger(UInt32(max(bytes, 5) - 4))
        buffer.writeInteger(kind)
        buffer.writeRepeatingByte(0x2A, count: max(bytes, 5) - 5)
        return buffer
    }

    /// Takes every whole frame from `buffer`, calling `handle` with each one's kind; what is
    /// left is the start of the next frame.
    static func take(from buffer: inout ByteBuffer, _ handle: (UInt8) -> Void) {
        while let length = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self), buffer.readableBytes >= 4 + Int(length) {
            let kind = buffer.getInteger(at: buffer.readerIndex + 4, as: UInt8.self) ?? 0
            buffer.moveReaderIndex(forwardBy: 4 + Int(length))
            handle(kind)
        }
        buffer.discardReadBytes()
    }
}
