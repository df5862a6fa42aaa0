import Foundation
import Multipeer
#if canImport(Glibc)
import Glibc
#endif

/// A file being sent: opened once, its size taken before the offer (and its SHA-256, for a
/// peer that wants it before the bytes), read in blocks from any offset (where an interrupted
/// transfer resumes). Every call blocks: the session makes them on a ``POSIXResourceFiles``'s
/// queue.
final class SourceFile: ResourceSource {
    let path: String
    let size: UInt64
    private let descriptor: Int32
    private let modified: timespec

    /// Opens `url` for reading; without `followingLinks`, a symbolic link is refused, not followed.
    /// - Throws: ``MultipeerError/Code/resourceUnreadable``.
    init(_ url: URL, followingLinks: Bool = true) throws(MultipeerError) {
        path = url.path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | (followingLinks ? 0 : O_NOFOLLOW))
        guard descriptor >= 0 else {
            let error = errno
            throw .resourceUnreadable(url.path, !followingLinks && error == ELOOP ? "it is a symbolic link, which is not followed" : Self.describe(error))
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let error = errno
            close(descriptor)
            throw .resourceUnreadable(url.path, Self.describe(error))
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw .resourceUnreadable(url.path, "it is not a regular file")
        }
        self.descriptor = descriptor
        size = UInt64(info.st_size)
        modified = info.st_mtim
    }

    deinit { close(descriptor) }

    /// Up to `count` bytes from `offset` (fewer only at the end of the file).
    func read(at offset: UInt64, count: Int) throws(MultipeerError) -> Data {
        let wanted = Int(min(UInt64(count), size - min(size, offset)))
        var data = Data(count: wanted)
        var filled = 0
        let error: Int32 = data.withUnsafeMutableBytes { buffer in
            while filled < wanted {
                let got = pread(descriptor, buffer.baseAddress! + filled, wanted - filled, off_t(offset) + off_t(filled))
                if got < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if got == 0 { return -1 }
                filled += got
            }
            return 0
        }
        if error == -1 { throw .resourceUnreadable(path, "it changed while it was sent (it is shorter now)") }
        if error != 0 { throw .resourceUnreadable(path, Self.describe(error)) }
        return data
    }

    /// Throws when the file's size or modification time changed since it was opened.
    func checkUnchanged() throws(MultipeerError) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .resourceUnreadable(path, Self.describe(errno)) }
        if UInt64(info.st_size) != size || info.st_mtim.tv_sec != modified.tv_sec || info.st_mtim.tv_nsec != modified.tv_nsec {
            throw .resourceUnreadable(path, "it changed while it was sent")
        }
    }

    /// The system's sentence for `error` (an `errno`), lowercase.
    static func describe(_ error: Int32) -> String {
        String(cString: strerror(error)).lowercased()
    }
}
