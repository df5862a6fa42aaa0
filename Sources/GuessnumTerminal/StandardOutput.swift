import CReadline
import Synchronization

/// Standard output shared by the consoles: one lock so that each message is written whole.
enum StandardOutput {
    private static let lock = Mutex(())

    /// Writes `text` and a newline to standard output and flushes it, as one piece.
    static func writeLine(_ text: String) {
        let bytes = Array((text + "\n").utf8)
        lock.withLock { _ in
            bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    _ = creadline_write_stdout(chars.baseAddress, chars.count)
                }
            }
        }
    }
}
