import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where a received resource's bytes go until they are checked: a file readable by this user
/// alone (`0600`), hidden beside its destination (`.NAME.TRANSFER.part`), then linked into
/// place under a name that no file has (`NAME`, else `NAME (2)`, …), so nothing is ever
/// overwritten. Every call blocks: make them on a ``FileQueue``.
///
/// Its descriptor closes once the file is in place or discarded, not when the last reference
/// goes: an ``IncomingResource`` is kept a while after its end (to answer a sender that
/// offers it again), and an open descriptor would keep a file the user removed meanwhile on
/// the disk, and count against the process's limit for every file received in that while.
final class PartialFile: Sendable {
    let directory: URL
    let name: String
    let temporary: URL
    /// -1 once closed.
    private let descriptor: Mutex<Int32>

    /// Creates the partial file in `directory` for the resource `name` of transfer `transfer`.
    /// - Throws: ``MultipeerError/Code/resourceFailed`` when it cannot be created.
    init(in directory: URL, name: String, transfer: [UInt8]) throws(MultipeerError) {
        self.directory = directory
        self.name = name
        let tag = transfer.prefix(6).map { String(format: "%02x", $0) }.joined()
        temporary = directory.appendingPathComponent(Self.temporaryName(for: name, tag: tag))
        // The name is a ResourceName (no slash): the file is inside `directory`, whatever it says.
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .resourceFailed(name, "\(directory.path) cannot take it (\(SourceFile.describe(errno)))") }
        self.descriptor = Mutex(descriptor)
    }

    deinit { closeDescriptor() }

    /// The most bytes a file name may have (Linux's `NAME_MAX`).
    static let maximumNameBytes = 255

    /// The hidden name of `name`'s partial file: `.NAME.TAG.part`, NAME cut at a character so
    /// that the whole stays within ``maximumNameBytes`` (a resource's name may have them all).
    static func temporaryName(for name: String, tag: String) -> String {
        let suffix = ".\(tag).part"
        let room = maximumNameBytes - 1 - suffix.utf8.count
        var kept = ""
        var bytes = 0
        for character in name {
            bytes += character.utf8.count
            if bytes > room { break }
            kept.append(character)
        }
        return "." + kept + suffix
    }

    /// Closes the descriptor, once.
    private func closeDescriptor() {
        let open = descriptor.withLock { descriptor in
            defer { descriptor = -1 }
            return descriptor
        }
        if open >= 0 { close(open) }
    }

    /// Writes `data` at `offset`.
    func write(_ data: Data, at offset: UInt64) throws(MultipeerError) {
        // Under the lock, so that a descriptor closed meanwhile is never written (nor reused).
        let error: Int32 = descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return EBADF }
            return data.withUnsafeBytes { buffer in
                var written = 0
                while written < buffer.count {
                    let count = pwrite(descriptor, buffer.baseAddress! + written, buffer.count - written, off_t(offset) + off_t(written))
                    if count < 0 {
                        if errno == EINTR { continue }
                        return errno
                    }
                    written += count
                }
                return 0
            }
        }
        if error != 0 { throw .resourceFailed(name, "writing it to \(directory.path) failed (\(SourceFile.describe(error)))") }
    }

    /// Flushes the bytes to disk and links the file into place under the first free name;
    /// returns where it is.
    func place() throws(MultipeerError) -> URL {
        let failure: Int32 = descriptor.withLock { $0 < 0 ? EBADF : fsync($0) == 0 ? 0 : errno }
        guard failure == 0 else { throw .resourceFailed(name, "writing it to \(directory.path) failed (\(SourceFile.describe(failure)))") }
        for attempt in 1...1000 {
            let destination = directory.appendingPathComponent(Self.name(name, attempt: attempt))
            if link(temporary.path, destination.path) == 0 {
                unlink(temporary.path)
                closeDescriptor()
                return destination
            }
            guard errno == EEXIST else { throw .resourceFailed(name, "it cannot be put in \(directory.path) (\(SourceFile.describe(errno)))") }
        }
        throw .resourceFailed(name, "\(directory.path) already has 1,000 files of that name")
    }

    /// Removes the partial file.
    func discard() {
        unlink(temporary.path)
        closeDescriptor()
    }

    /// The `attempt`th name tried for `name`: itself, then "photo (2).jpg", "photo (3).jpg"…
    static func name(_ name: String, attempt: Int) -> String {
        guard attempt > 1 else { return name }
        let base = name as NSString
        let stem = base.deletingPathExtension
        let suffix = base.pathExtension
        return suffix.isEmpty || stem.isEmpty ? "\(name) (\(attempt))" : "\(stem) (\(attempt)).\(suffix)"
    }
}
