import Foundation
import Multipeer
import MultipeerPOSIX

/// The port this account's host last listened on, to listen there again: players who joined by
/// address, by join code or from their remembered games find a restarted game where it was.
///
/// The file is `$XDG_STATE_HOME/guessnum/host_port` (`~/.local/state/guessnum/host_port`), the
/// port in decimal. A missing or unreadable file means no port is remembered.
public struct ListeningPortMemory: Sendable {
    /// The file.
    public let fileURL: URL

    public init(fileURL: URL) {
        self.fileURL = fileURL
    }

    /// The standard file: under `XDG_STATE_HOME`, or `~/.local/state` when it is unset.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> ListeningPortMemory {
        ListeningPortMemory(fileURL: XDGDirectory.state(environment: environment).appendingPathComponent("guessnum/host_port"))
    }

    /// The port remembered, if any.
    public var last: Int? {
        guard let text = try? String(contentsOf: fileURL, encoding: .utf8),
              let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), (1...65535).contains(port) else { return nil }
        return port
    }

    /// Remembers `port`; a failure to write only means the next game may listen elsewhere.
    public func remember(_ port: Int) {
        try? PrivateFiles.write(Data("\(port)\n".utf8), to: fileURL, what: "port")
    }
}
