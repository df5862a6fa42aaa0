import Foundation
import Multipeer
import MultipeerPOSIX

/// The hosts this player has played with, and the key each proved: trust on first use, as
/// SSH's `known_hosts`. A host that comes back under the same name — or a name that looks like
/// it, see ``HostName`` — with another key is not joined silently; a key played with before is
/// known under whatever name it comes.
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
        /// The key remembered for each name, by the name's ``HostName/key(_:)``.
        let keysByName: [String: PeerFingerprint]
        /// Every key remembered, by its identity.
        let identities: Set<UUID>

        /// Where the host `name` stands, judged by the identity it announces (the first 16
        /// bytes of its key's fingerprint), before connecting.
        public func status(ofHost name: String, identity: UUID) -> Status {
            // The name (or one like it) belongs to the key remembered for it; a key played
            // with before under another name is the same host under a new name.
            if let known = keysByName[HostName.key(name)] { return known.identity == identity ? .known : .changed }
            return identities.contains(identity) ? .known : .unknown
        }

        /// Where the host `name` stands, judged by the key it proved.
        public func status(ofHost name: String, key: PeerFingerprint) -> Status {
            // The identity is the key's first 128 bits: a key that proves it is the key.
            status(ofHost: name, identity: key.identity)
        }
    }

    /// Reads the file.
    public func read() -> Snapshot {
        var keysByName: [String: PeerFingerprint] = [:]
        var identities: Set<UUID> = []
        for line in lines() {
            guard let (name, key) = Self.parse(line) else { continue }
            keysByName[HostName.key(name)] = key
            identities.insert(key.identity)
        }
        return Snapshot(keysByName: keysByName, identities: identities)
    }

    /// Where the host `name` stands, judged by the identity it announces, before connecting.
    public func status(ofHost name: String, identity: UUID) -> Status {
        read().status(ofHost: name, identity: identity)
    }

    /// Where the host `name` stands, judged by the key it proved.
    public func status(ofHost name: String, key: PeerFingerprint) -> Status {
        read().status(ofHost: name, key: key)
    }

    /// Remembers that the host `name` has `key`, replacing what was remembered for `name` (or
    /// a name that looks like it) and for `key` (under another name).
    /// - Throws: ``AppFailure`` of kind ``AppFailure/Code/storage`` when the file cannot be
    ///   written, with the sentence that names it.
    public func remember(_ name: String, key: PeerFingerprint) throws(AppFailure) {
        do {
            // Read and written under the file's lock: two joins at once both keep their host.
            try PrivateFiles.update(fileURL, what: "known hosts") { current in
                let nameKey = HostName.key(name)
                let kept = Self.lines(of: current).filter { line in
                    Self.parse(line).map { HostName.key($0.name) != nameKey && $0.key != key } ?? true
                }
                let text = (kept.isEmpty ? [Self.header] : kept) + ["\(key) \(name)"]
                return Data((text.joined(separator: "\n") + "\n").utf8)
            }
        } catch {
            throw AppFailure(storing: error)
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
