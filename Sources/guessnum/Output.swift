import Foundation

/// Where the program's lines go: one message a line, flushed at once so that pipes and
/// scripts see each line as it happens.
enum Output {
    private static let lock = NSLock()

    static func line(_ text: String) {
        lock.withLock {
            FileHandle.standardOutput.write(Data((text + "\n").utf8))
        }
    }

    static func error(_ text: String) {
        lock.withLock {
            FileHandle.standardError.write(Data((text + "\n").utf8))
        }
    }
}

/// Keeps what peers send from steering the terminal: control characters (escape sequences
/// included) become visible placeholders.
enum TextSanitizer {
    static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            scalar.properties.generalCategory == .control ? "\u{FFFD}" : scalar
        }))
    }
}
