import Foundation
import Multipeer

/// Keeps one user's identity key in a file, so that the user is the same peer every launch.
///
/// The standard place is `$XDG_CONFIG_HOME/APP/peer-identity`, or
/// `~/.config/APP/peer-identity` when `XDG_CONFIG_HOME` is unset. The file holds the private
/// ``PeerKey`` as PKCS#8 PEM text, readable by its owner only (`0600`, in a `0700` directory).
/// Releases before keys kept a random UUID in the same file; such a file is replaced by a new
/// key, and ``StoredKey/replacedIdentity`` says so.
public struct PeerIdentityStore: Sendable {
    /// The file that holds the key.
    public let fileURL: URL

    /// A store that keeps the identity in `fileURL`.
    public init(fileURL: URL) {
        self.fileURL = fileURL
    }

    /// The store in the XDG configuration directory of `application`, in a file named `fileName`.
    public static func standard(
        application: String,
        fileName: String = "peer-identity",
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> PeerIdentityStore {
        let configHome = XDGDirectory.config(environment: environment)
        return PeerIdentityStore(fileURL: configHome.appendingPathComponent(application, isDirectory: true).appendingPathComponent(fileName))
    }

    /// Returns the stored key, creating and storing a new one on first use (or in place of an
    /// identity of an earlier release).
    ///
    /// - Throws: ``MultipeerError/Code/identityStorage`` when the file cannot be read or
    ///   written, or holds neither a key nor an earlier release's identity: a damaged key is
    ///   never silently replaced, since players who know this peer would see another.
    public func loadOrCreate() throws(MultipeerError) -> StoredKey {
        var replaced: UUID?
        switch try read() {
        case .key(let key):
            _ = chmod(fileURL.path, 0o600)
            return StoredKey(key: key, replacedIdentity: nil)
        case .earlierIdentity(let old): replaced = old
        case nil: break
        }
        let key = PeerKey.generate()
        try write(key)
        return StoredKey(key: key, replacedIdentity: replaced)
    }

    /// The stored key, without making one: nil when there is no file, or it holds an earlier
    /// release's identity.
    /// - Throws: ``MultipeerError/Code/identityStorage`` when the file cannot be read or is
    ///   damaged.
    public func load() throws(MultipeerError) -> PeerKey? {
        if case .key(let key)? = try read() { key } else { nil }
    }

    /// What the file holds.
    private enum Stored {
        case key(PeerKey)
        case earlierIdentity(UUID)
    }

    /// What the file holds; nil when there is none.
    private func read() throws(MultipeerError) -> Stored? {
        let path = fileURL.path
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let text: String
        do { text = try String(contentsOf: fileURL, encoding: .utf8) } catch {
            throw MultipeerError(.identityStorage, "Could not read the identity key in \(path) (\(error.localizedDescription)); check its permissions.", underlying: error)
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let old = UUID(uuidString: trimmed) { return .earlierIdentity(old) }
        guard let key = try? PeerKey(pemRepresentation: trimmed) else {
            throw MultipeerError(
                .identityStorage,
                "The identity key file \(path) is damaged. Restore it from a backup to stay the same player; or move it away and a new identity will be made (people who know you will see a new player).")
        }
        return .key(key)
    }

    /// Writes `key` to the file, readable by its owner only from its first byte, replacing what
    /// was there at once.
    private func write(_ key: PeerKey) throws(MultipeerError) {
        try PrivateFiles.write(Data((key.pemRepresentation + "\n").utf8), to: fileURL, what: "identity key")
    }
}

/// A key loaded from, or newly written to, a ``PeerIdentityStore``.
public struct StoredKey: Sendable {
    /// The key.
    public let key: PeerKey
    /// The identity an earlier release kept in the file, now replaced by `key`; nil otherwise.
    public let replacedIdentity: UUID?
}
