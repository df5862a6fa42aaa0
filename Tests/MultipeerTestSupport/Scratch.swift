import Foundation

/// The directory of this test process under the system's temporary directory: every file or
/// directory a test makes (a person's home, a store, a capture) goes inside it, and it is removed
/// when the process exits, so a test run leaves nothing behind in `/tmp`.
public enum Scratch {
    /// `guessnum-tests-PID`, made (0700) on first use.
    public static let root: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("guessnum-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        atexit { removeScratchRoot() }
        return url
    }()

    /// A fresh path inside ``root``: `prefix`, a dash and a new UUID, then `suffix` (nothing is made there).
    public static func path(_ prefix: String, suffix: String = "") -> URL {
        root.appendingPathComponent("\(prefix)-\(UUID().uuidString)\(suffix)")
    }
}

private func removeScratchRoot() {
    try? FileManager.default.removeItem(at: Scratch.root)
}
