import Foundation
import Multipeer
#if canImport(Glibc)
import Glibc
#endif

/// A `ResumeStore`'s records on a POSIX disk (`Multipeer`'s `ResumeStateFiles`): opened
/// without following a symbolic link, written whole to a new file (`0600`) renamed over the
/// old, in a directory made `0700`.
public struct POSIXResumeStateFiles: ResumeStateFiles {
    /// The system's disk.
    public init() {}

    /// Reads the record at `url` whole (`O_NOFOLLOW`); one that cannot be opened is removed.
    public func readStateFile(at url: URL) throws(FileFailure) -> Data? {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            let error = errno
            unlink(url.path)
            throw FileFailure(SourceFile.describe(error))
        }
        defer { close(descriptor) }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).readDataToEndOfFile()
    }

    /// Writes `contents` to a new file beside `url` (`0600`, `O_EXCL`) and renames it over `url`.
    public func createStateFile(at url: URL, contents data: Data) throws(FileFailure) -> any StateFile {
        let temporary = url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + ".new", isDirectory: false)
        unlink(temporary.path)
        let descriptor = open(temporary.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw FileFailure(SourceFile.describe(errno)) }
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == data.count, rename(temporary.path, url.path) == 0 else {
            let error = errno
            close(descriptor)
            unlink(temporary.path)
            throw FileFailure(SourceFile.describe(error))
        }
        return DescriptorStateFile(descriptor: descriptor)
    }

    /// Removes the record at `url` (`unlink`).
    public func removeStateFile(at url: URL) {
        unlink(url.path)
    }

    /// Makes `url` and the directories on its way (`0700`); one there already is kept.
    public func makeStateDirectory(_ url: URL) -> Bool {
        var path = ""
        for part in url.standardizedFileURL.pathComponents.dropFirst() {
            path += "/" + part
            if mkdir(path, 0o700) != 0, errno != EEXIST { return false }
        }
        return true
    }

    /// The files in `url`, each with its modification time (`lstat`, to the second).
    public func stateFiles(in url: URL) -> [StateFileEntry] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else { return [] }
        return names.compactMap { name in
            var info = stat()
            guard lstat(url.appendingPathComponent(name, isDirectory: false).path, &info) == 0 else { return nil }
            return StateFileEntry(name: name, modified: Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec)))
        }
    }
}

/// A record's open file; closed when the last reference goes.
final class DescriptorStateFile: StateFile {
    private let descriptor: Int32

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    @discardableResult
    func write(_ data: Data, at offset: UInt64) -> Bool {
        let count = data.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
        return count == data.count
    }

    @discardableResult
    func truncate(to size: UInt64) -> Bool {
        ftruncate(descriptor, off_t(size)) == 0
    }
}
