import Foundation
import Multipeer

/// The hosts this player has played with, and the key each proved: trust on first use, as
/// SSH's `known_hosts`. A host that comes back under the same name with another key is not
/// joined silently.
///
/// The file is `$XDG_DATA_HOME/guessnum/known_hosts` (`~/.local/share/guessnum/known_hosts`),
/// one host a line: the key's fingerprint (64 hex digits), a space, the host's name. Lines
/// starting with `#` and lines that do not read so are ignored (and kept when the file is
/// rewritten), so a damaged line costs one host, never the file.
public struct KnownHosts: Sendable {
    /// Where a host stands with this player.
    public enum Status: Sendable, Equatable {
        /// Never played with under this name.
        case unknown
        /// Played with before, with this key.
        case known
        /// Played with before under this name, with another key.
        case changed
    }

    /// The file.
    public let fileURL: URL

    /// Known hosts kept in `fileURL`.
    public init(fileURL: URL) {
        self.fileURL = fileURL
    }

    /// The standard file: under `XDG_DATA_HOME`, or `~/.local/share` when it is unset.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> KnownHosts {
        let dataHome = XDGDirectory.data(environment: environment)
        return KnownHosts(fileURL: dataHome.appendingPathComponent("guessnum/known_hosts"))
    }

    /// What the file says now, read once, for judging many hosts (the list of games) without
    /// reading it again for each.
    public struct Snapshot: Sendable {
        let entries: [String: PeerFingerprint]

        /// Where the host `name` stands, judged by the identity it announces (the first 16
        /// bytes of its key's fingerprint), before connecting.
        public func status(ofHost name: String, identity: UUID) -> Status {
            guard let known = entries[name] else { return .unknown }
            return known.identity == identity ? .known : .changed
        }

        /// Where the host `name` stands, judged by the key it proved.
        public func status(ofHost name: String, key: PeerFingerprint) -> Status {
            guard let known = entries[name] else { return .unknown }
            return known == key ? .known : .changed
        }
    }

    /// Reads the file.
    public func read() -> Snapshot {
        var entries: [String: PeerFingerprint] = [:]
        for line in lines() {
            if let (name, key) = Self.parse(line) { entries[name] = key }
        }
        return Snapshot(entries: entries)
    }

    /// Where the host `name` stands, judged by the identity it announces, before connecting.
    public func status(ofHost name: String, identity: UUID) -> Status {
        read().status(ofHost: name, identity: identity)
    }

    /// Where the host `name` stands, judged by the key it proved.
    public func status(ofHost name: String, key: PeerFingerprint) -> Status {
        read().status(ofHost: name, key: key)
    }

    /// Remembers that the host `name` has `key`, replacing what was remembered for `name`.
    /// - Throws: ``Multipeer/MultipeerError/Code/identityStorage`` when the file cannot be written.
    public func remember(_ name: String, key: PeerFingerprint) throws(MultipeerError) {
        // Read and written under the file's lock: two joins at once both keep their host.
        try PrivateFiles.update(fileURL, what: "known hosts") { current in
            let kept = Self.lines(of: current).filter { line in Self.parse(line).map { $0.name != name } ?? true }
            let text = (kept.isEmpty ? [Self.header] : kept) + ["\(key) \(name)"]
            return Data((text.joined(separator: "\n") + "\n").utf8)
        }
    }

    static let header = "# Hosts you have played with, and the key each proved: fingerprint, then name."

    private func lines() -> [String] {
        Self.lines(of: try? Data(contentsOf: fileURL))
    }

    private static func lines(of data: Data?) -> [String] {
        guard let data, let text = String(data: data, encoding: .utf8) else { return [] }
        return text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }

    private static func parse(_ line: String) -> (name: String, key: PeerFingerprint)? {
        guard !line.hasPrefix("#"), let space = line.firstIndex(of: " ") else { return nil }
        guard let key = PeerFingerprint(hex: String(line[..<space])) else { return nil }
        let name = String(line[line.index(after: space)...])
        return name.isEmpty ? nil : (name, key)
    }
}
