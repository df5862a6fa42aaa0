import Foundation

/// Keeps one user's peer identity in a file, so that the user is the same peer every launch.
///
/// The standard place is `$XDG_CONFIG_HOME/APP/peer-identity`, or
/// `~/.config/APP/peer-identity` when `XDG_CONFIG_HOME` is unset.
public struct PeerIdentityStore: Sendable {
    /// The file that holds the identity, as one UUID on one line.
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
        let configHome: URL
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            configHome = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"] ?? NSHomeDirectory()
            configHome = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".config", isDirectory: true)
        }
        return PeerIdentityStore(fileURL: configHome.appendingPathComponent(application, isDirectory: true).appendingPathComponent(fileName))
    }

    /// Returns the stored identity, creating and storing a new one on first use.
    ///
    /// - Throws: ``MultipeerError/Code/identityStorage`` when the file cannot be read or
    ///   written, or holds something other than an identity.
    public func loadOrCreate() throws(MultipeerError) -> UUID {
        let path = fileURL.path
        if FileManager.default.fileExists(atPath: path) {
            let text: String
            do { text = try String(contentsOf: fileURL, encoding: .utf8) } catch {
                throw MultipeerError(.identityStorage, "Could not read the peer identity in \(path) (\(error.localizedDescription)); check its permissions.")
            }
            guard let identity = UUID(uuidString: text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw MultipeerError(.identityStorage, "The peer identity file \(path) is damaged; delete it and a new identity will be made.")
            }
            return identity
        }
        let identity = UUID()
        do {
            try FileManager.default.createDirectory(
                at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            try Data((identity.uuidString + "\n").utf8).write(to: fileURL, options: .atomic)
        } catch {
            throw MultipeerError(.identityStorage, "Could not save the peer identity in \(path) (\(error.localizedDescription)); check that the directory is writable.")
        }
        return identity
    }
}
