import Foundation
import Multipeer
#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif

/// The small files a peer keeps for its user alone (its identity key, the hosts it knows, the
/// games it joined): in a directory only that user may enter, readable by that user only from
/// their first byte, replaced whole so that a crash never leaves half of one, and changed by one
/// program at a time.
public enum PrivateFiles {
    /// Writes `data` to `url`, replacing the file at once: a new file is created `0600` (never
    /// wider, whatever the umask, and never made narrower after its content is in), filled,
    /// flushed, then renamed over the old one. The directory is made `0700` first, or narrowed
    /// to that when it is this user's and lets others in.
    /// - Parameter what: the file in a sentence ("identity key", "known hosts").
    /// - Throws: ``MultipeerError/Code/identityStorage`` with a sentence naming the file.
    public static func write(_ data: Data, to url: URL, what: String) throws(MultipeerError) {
        try prepareDirectory(of: url, what: what)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure(what, url, errno) }
        var written = 0
        let result: Int32 = data.withUnsafeBytes { bytes in
            while written < bytes.count {
                let count = systemWrite(descriptor, bytes.baseAddress! + written, bytes.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += count
            }
            return fsync(descriptor) == 0 ? 0 : errno
        }
        close(descriptor)
        guard result == 0, rename(temporary.path, url.path) == 0 else {
            let error = result != 0 ? result : errno
            unlink(temporary.path)
            throw failure(what, url, error)
        }
    }

    /// Reads `url` (nil when there is none), hands its content to `change` and writes what it
    /// returns, holding an exclusive lock (`url` + `.lock`) throughout, so that two programs of
    /// one user changing the file at once both have their change kept.
    /// - Throws: ``MultipeerError/Code/identityStorage``, or what `change` throws.
    public static func update(_ url: URL, what: String, _ change: (Data?) throws(MultipeerError) -> Data) throws(MultipeerError) {
        try prepareDirectory(of: url, what: what)
        let lockPath = url.path + ".lock"
        let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw failure(what, URL(fileURLWithPath: lockPath), errno) }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else { throw failure(what, URL(fileURLWithPath: lockPath), errno) }
        }
        let current = FileManager.default.fileExists(atPath: url.path) ? try? Data(contentsOf: url) : nil
        try write(try change(current), to: url, what: what)
    }

    /// Makes the directory of `url` (`0700`), or checks the one there: it must be a directory of
    /// this user's, and loses any access it gave others.
    static func prepareDirectory(of url: URL, what: String) throws(MultipeerError) {
        let directory = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw MultipeerError(.identityStorage, "Could not save the \(what) in \(url.path): \(directory.path) cannot be made (\(error.localizedDescription)); check that its parent is writable.", underlying: error)
        }
        var status = stat()
        guard lstat(directory.path, &status) == 0 else { throw failure(what, url, errno) }
        guard status.st_mode & S_IFMT == S_IFDIR, status.st_uid == geteuid() else {
            throw MultipeerError(.identityStorage, "Will not save the \(what) in \(directory.path): it is not a directory of your own. Move it away, or set XDG_CONFIG_HOME or XDG_DATA_HOME to a directory of yours.")
        }
        if status.st_mode & 0o077 != 0, chmod(directory.path, 0o700) != 0 {
            throw MultipeerError(.identityStorage, "Will not save the \(what) in \(directory.path): others may enter it, and it could not be made yours alone (\(String(cString: strerror(errno)))).")
        }
    }

    private static func failure(_ what: String, _ url: URL, _ code: Int32) -> MultipeerError {
        MultipeerError(.identityStorage, "Could not save the \(what) in \(url.path) (\(String(cString: strerror(code)))); check that the directory is writable.")
    }
}
