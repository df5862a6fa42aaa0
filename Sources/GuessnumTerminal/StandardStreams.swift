import CReadline
import Synchronization

/// The program's one writer of standard output and standard error: one lock, so that each
/// message is written whole and flushed at once (pipes and scripts see each line as it
/// happens). Consoles write through it; so should everything else the program prints.
public enum StandardStreams {
    private static let lock = Mutex(())

    /// Writes `text` and a newline to standard output and flushes it, as one piece.
    public static func writeLine(_ text: String) {
        write(text, creadline_write_stdout)
    }

    /// Writes `text` and a newline to standard error, as one piece.
    public static func writeErrorLine(_ text: String) {
        write(text, creadline_write_stderr)
    }

    private static func write(_ text: String, _ writer: (UnsafePointer<CChar>?, Int) -> Int32) {
        let bytes = Array((text + "\n").utf8)
        lock.withLock { _ in
            bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    _ = writer(chars.baseAddress, chars.count)
                }
            }
        }
    }
}
