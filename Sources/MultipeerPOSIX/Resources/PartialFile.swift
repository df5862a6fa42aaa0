import CSyncFS
import Foundation
import Multipeer
import SafeText
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where a received resource's bytes go until they are checked: a file readable by this user
/// alone (`0600`), hidden beside its destination (`.NAME.TRANSFER.part`), then linked into
/// place under a name that no file has (`NAME`, else `NAME (2)`, …), so nothing is ever
/// overwritten. Every call blocks: the session makes them on a ``POSIXResourceFiles``'s queue.
///
/// A resource whose name is a path (``ResourcePath``, sent inside a folder) goes in that path's
/// folders under the directory, made (`0700`) when missing. They are opened one by one from the
/// directory's own descriptor without following a symbolic link (and kept open while files of
/// theirs are under way: ``OpenFolders``), and the file is made, linked and removed relative to
/// the last one's descriptor: nothing is written outside the directory, whatever links its
/// folders hold or gain meanwhile.
///
/// Its descriptors close once the file is in place or discarded, not when the last reference
/// goes: an application may keep its ``IncomingResource`` after the end, and an open
/// descriptor would keep a file the user removed meanwhile on the disk, and count against the
/// process's limit for every file received in that while.
final class PartialFile: PartialResourceFile {
    /// Where the resource goes.
    let location: PartialFileLocation
    /// The directory the resource was accepted into.
    var directory: URL { location.directory }
    /// The resource's name, or its path inside the directory.
    var name: String { location.name }
    /// The folder the file goes in: the directory, and the path's folders under it.
    let folder: URL
    /// The hidden name of the partial file in ``folder``.
    let temporaryName: String
    private var fileName: String { location.fileName }
    /// Where its bytes are synced and it is put in place, with others.
    private let disk: DiskSync
    /// The open folders it takes its folder from (its lease is given back when it closes).
    private let folders: OpenFolders
    private struct Descriptors {
        var file: Int32
        var folder: Int32
        /// The lease of its folder from ``folders``.
        var lease: OpenFolders.Lease?
    }

    /// The numbers of the file's and the folder's descriptors from ``DiskSync/open(_:)``.
    private let opened: (file: UInt64, folder: UInt64)

    /// -1 once closed.
    private let descriptors: Mutex<Descriptors>

    /// Creates the partial file `temporaryName` at `location` (and the folders of its path),
    /// or with `creating` false opens the one kept from before, without following a symbolic
    /// link; `disk` puts it in place.
    /// - Throws: ``Multipeer/MultipeerError/Code/resourceFailed`` when it cannot be created or
    ///   opened, or when one of its folders is a symbolic link or not a folder.
    init(at location: PartialFileLocation, temporaryName: String, creating: Bool, disk: DiskSync, folders: OpenFolders) throws(MultipeerError) {
        self.location = location
        self.disk = disk
        self.folders = folders
        let directory = location.directory
        let name = location.name
        folder = location.folder
        self.temporaryName = temporaryName
        var opened = try Self.open(temporaryName, at: location, creating: creating, folders: folders)
        if opened.error == ENOENT, creating {
            // Its folder was removed since it was opened for another file: opened (made) again.
            folders.forget(opened.lease)
            folders.close(opened.lease)
            opened = try Self.open(temporaryName, at: location, creating: creating, folders: folders)
        }
        guard opened.file.descriptor >= 0 else {
            folders.close(opened.lease)
            throw .resourceFailed(name, "\(directory.path) cannot take it (\(SourceFile.describe(opened.error)))")
        }
        descriptors = Mutex(Descriptors(file: opened.file.descriptor, folder: opened.folder.descriptor, lease: opened.lease))
        self.opened = (opened.file.opened, opened.folder.opened)
    }

    /// What ``open(_:at:creating:folders:)`` opened: the lease of the folder; the folder's own
    /// descriptor and the file's, each -1 when it could not be opened (`error` says why).
    private struct Opened {
        let lease: OpenFolders.Lease
        let folder: DiskSync.Descriptor
        let file: DiskSync.Descriptor
        let error: Int32
    }

    /// Opens the folder of `location` (from `folders`, made when missing), a descriptor of its
    /// own of that folder, and the partial file `temporaryName` in it (made with `creating`).
    private static func open(_ temporaryName: String, at location: PartialFileLocation, creating: Bool, folders: OpenFolders) throws(MultipeerError) -> Opened {
        let lease = try folders.open(location.folders, in: location.directory, for: location.name)
        // A descriptor of its own for the folder (the syncs' error reports are counted for each
        // open file description: see DiskSync), opened from the open folder's.
        let (folderDescriptor, folderOpened) = DiskSync.open { openat(lease.descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard folderDescriptor >= 0 else {
            return Opened(lease: lease, folder: .init(descriptor: -1, opened: 0), file: .init(descriptor: -1, opened: 0), error: errno)
        }
        let flags = creating ? O_RDWR | O_CREAT | O_EXCL : O_RDWR
        var (descriptor, fileOpened) = DiskSync.open { openat(folderDescriptor, temporaryName, flags | O_CLOEXEC | O_NOFOLLOW, 0o600) }
        if descriptor < 0, errno == EEXIST {
            // A partial file of this transfer left from before that no record vouches for
            // (the program stopped, its record could not be used): it starts anew.
            unlinkat(folderDescriptor, temporaryName, 0)
            (descriptor, fileOpened) = DiskSync.open { openat(folderDescriptor, temporaryName, flags | O_CLOEXEC | O_NOFOLLOW, 0o600) }
        }
        let error = descriptor < 0 ? errno : 0
        if descriptor < 0 { close(folderDescriptor) }
        return Opened(
            lease: lease, folder: .init(descriptor: descriptor < 0 ? -1 : folderDescriptor, opened: folderOpened),
            file: .init(descriptor: descriptor, opened: fileOpened), error: error)
    }

    /// Removes the partial file `temporaryName` kept at `location`, if its folders are there
    /// (none is made, no link followed).
    static func removeKept(_ temporaryName: String, at location: PartialFileLocation, folders: OpenFolders) {
        guard let lease = try? folders.open(location.folders, in: location.directory, for: location.name, making: false) else { return }
        unlinkat(lease.descriptor, temporaryName, 0)
        folders.close(lease)
    }

    /// Makes `folders` under `directory`, and the folders on the way, as a resource's folders
    /// are made: `0700`, nothing followed, nothing outside it.
    static func makeFolders(_ folders: [String], in directory: URL, for name: String, open: OpenFolders) throws(MultipeerError) {
        open.close(try open.open(folders, in: directory, for: name))
    }

    /// Up to `count` bytes at `offset` of the file; nil when they cannot be read.
    func read(at offset: UInt64, count: Int) -> Data? {
        descriptors.withLock { descriptors -> Data? in
            guard descriptors.file >= 0 else { return nil }
            var data = Data(count: count)
            let got = data.withUnsafeMutableBytes { pread(descriptors.file, $0.baseAddress!, count, off_t(offset)) }
            guard got >= 0 else { return nil }
            return data.prefix(got)
        }
    }

    /// Closes the file, keeping it on disk for a transfer that goes on after a restart.
    func keep() {
        closeDescriptors()
    }

    deinit { closeDescriptors() }

    /// Closes the descriptors, once.
    private func closeDescriptors() {
        let open = descriptors.withLock { descriptors in
            defer { descriptors = Descriptors(file: -1, folder: -1, lease: nil) }
            return descriptors
        }
        if open.file >= 0 { close(open.file) }
        if open.folder >= 0 { close(open.folder) }
        if let lease = open.lease { folders.close(lease) }
    }

    /// Writes `data` at `offset`; with `writingBack`, starts writing it to the disk at once
    /// (`sync_file_range`), without waiting: the page cache holds a large file's bytes for up
    /// to 30 seconds or a tenth of the memory otherwise, so the `fsync` before the file is put
    /// in place wrote a whole gibibyte while the sender waited (0.3 s of a 9.4 s transfer).
    func write(_ data: Data, at offset: UInt64, writingBack: Bool) throws(MultipeerError) {
        // Under the lock, so that a descriptor closed meanwhile is never written (nor reused).
        let error: Int32 = descriptors.withLock { descriptors in
            let descriptor = descriptors.file
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
                if writingBack { _ = csyncfs_start_writeback(descriptor, Int64(offset), Int64(buffer.count)) }
                return 0
            }
        }
        if error != 0 { throw .resourceFailed(name, "writing it to \(directory.path) failed (\(SourceFile.describe(error)))") }
    }

    /// Puts the file in place once its bytes are on the disk (``DiskSync``, in a group with
    /// other files): its bytes synced, the file linked under the first free name, its folder
    /// synced, so that the name is on the disk too; returns where it is. When it returns, a
    /// crash can lose neither the file nor its name. `linked` is called with where it is as
    /// soon as it is linked, before its folder is synced (on the sync's thread): what records
    /// the file as saved then does so at once, as a program killed meanwhile would want.
    func place(linked: @escaping @Sendable (URL) -> Void) async throws(MultipeerError) -> URL {
        let result = await withCheckedContinuation { continuation in
            place(linked: linked) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }

    /// As ``place(linked:)``, without waiting: `done` is called with the outcome on the sync's
    /// thread (at once when the file is closed already).
    func place(linked: @escaping @Sendable (URL) -> Void, done: @escaping @Sendable (Result<URL, MultipeerError>) -> Void) {
        let file: Int32
        let folder: Int32
        do throws(MultipeerError) {
            (file, folder) = try duplicates()
        } catch {
            return done(.failure(error))
        }
        let placed = Mutex<Result<URL, MultipeerError>?>(nil)
        let placement = DiskSync.Placement(
            file: .init(descriptor: file, opened: opened.file), folder: .init(descriptor: folder, opened: opened.folder),
            link: {
                let outcome = Result { () throws(MultipeerError) in self.folder.appendingPathComponent(try self.link(), isDirectory: false) }
                placed.withLock { $0 = outcome }
                guard let url = try? outcome.get() else { return false }
                linked(url)
                return true
            },
            done: { verdict in
                close(file)
                close(folder)
                guard verdict == 0 else { return done(.failure(self.failure(verdict))) }
                let outcome = placed.withLock { $0 } ?? .failure(self.failure(EIO))
                if case .success = outcome { self.closeDescriptors() }
                done(outcome)
            })
        disk.place(placement)
    }

    /// Duplicates of the file's and the folder's descriptors, which stay open while the file is
    /// synced, whatever closes the file meanwhile.
    private func duplicates() throws(MultipeerError) -> (file: Int32, folder: Int32) {
        let outcome: Result<(Int32, Int32), MultipeerError> = descriptors.withLock { descriptors in
            guard descriptors.file >= 0, descriptors.folder >= 0 else { return .failure(failure(EBADF)) }
            let file = dup(descriptors.file)
            guard file >= 0 else { return .failure(failure(errno)) }
            let folder = dup(descriptors.folder)
            guard folder >= 0 else {
                let error = errno
                close(file)
                return .failure(failure(error))
            }
            return .success((file, folder))
        }
        return try outcome.get()
    }

    private func failure(_ error: Int32) -> MultipeerError {
        .resourceFailed(name, "writing it to \(directory.path) failed (\(SourceFile.describe(error)))")
    }

    /// Links the file into place under the first free name and removes its hidden name;
    /// returns the name it has.
    private func link() throws(MultipeerError) -> String {
        let outcome: Result<String, MultipeerError> = descriptors.withLock { descriptors in
            guard descriptors.folder >= 0 else { return .failure(failure(EBADF)) }
            for attempt in 1...1000 {
                let candidate = ResourceFileNames.candidate(fileName, attempt: attempt)
                if linkat(descriptors.folder, temporaryName, descriptors.folder, candidate, 0) == 0 {
                    unlinkat(descriptors.folder, temporaryName, 0)
                    return .success(candidate)
                }
                guard errno == EEXIST else { return .failure(.resourceFailed(name, "it cannot be put in \(folder.path) (\(SourceFile.describe(errno)))")) }
            }
            return .failure(.resourceFailed(name, "\(folder.path) already has 1,000 files of that name"))
        }
        return try outcome.get()
    }

    /// Removes the partial file.
    func discard() {
        descriptors.withLock { descriptors in
            if descriptors.folder >= 0 { unlinkat(descriptors.folder, temporaryName, 0) }
        }
        closeDescriptors()
    }
}
