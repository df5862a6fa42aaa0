import Foundation
import Multipeer

/// Writing the small files a player or host keeps (known hosts, remembered games, the last
/// port): in a directory only this user may enter, replaced whole so a crash never leaves half.
enum PrivateFile {
    /// Writes `data` to `url` atomically, making its directory (`0700`) first if need be.
    /// - Throws: ``Multipeer/MultipeerError/Code/identityStorage``: "Could not save the `what`
    ///   in PATH (why); check that the directory is writable."
    static func write(_ data: Data, to url: URL, what: String) throws(MultipeerError) {
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try data.write(to: url, options: .atomic)
        } catch {
            throw MultipeerError(.identityStorage, "Could not save the \(what) in \(url.path) (\(error.localizedDescription)); check that the directory is writable.")
        }
    }
}
