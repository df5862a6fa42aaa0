import Foundation
import Multipeer
import SafeText
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The folders received files go in, kept open while files of theirs are being received or
/// put in place: a file in a folder whose descriptor is open costs no walk from the directory
/// down its path (an `open` and, for each folder, a `mkdirat` and an `openat`). Each folder is
/// opened from its parent's descriptor without following a symbolic link (`O_NOFOLLOW`,
/// `O_DIRECTORY`) and made (`0700`) when missing, as before; a folder's descriptor is closed as
/// soon as no file of it and no folder under it is open any more, so nothing stays open once
/// a set's files have all ended.
///
/// An open folder is the folder, wherever it goes: a folder moved meanwhile takes the files of
/// its path under way with it, as an open file would. One removed meanwhile is opened again
/// (made again) by the file that finds it gone (``forget(_:)``).
final class OpenFolders: Sendable {
    /// A folder under a directory: the directory's path and the folders under it.
    struct Key: Hashable, Sendable {
        let directory: String
        let folders: [String]

        var parent: Key? { folders.isEmpty ? nil : Key(directory: directory, folders: Array(folders.dropLast())) }
    }

    /// One use of an open folder (``open(_:in:for:making:)``): given back with ``close(_:)``.
    struct Lease: Sendable {
        let key: Key
        /// The folder's descriptor, open until the lease is given back.
        let descriptor: Int32
    }

    private struct Entry {
        let descriptor: Int32
        /// The leases of it: files' and the folders' under it.
        var users: Int
        /// The lease of its parent, held while it is open.
        let parent: Lease?
    }

    private struct Folders {
        var open: [Key: Entry] = [:]
        /// Folders found gone (``forget(_:)``) that leases still hold, by descriptor.
        var forgotten: [Int32: Entry] = [:]
    }

    private let folders = Mutex(Folders())

    /// The folder descriptors open (tests).
    var openCount: Int { folders.withLock { $0.open.count + $0.forgotten.count } }

    /// A lease of the folder `folders` under `directory`, each folder made (`0700`) when
    /// missing with `making` and opened without following a symbolic link.
    /// - Throws: ``Multipeer/MultipeerError/Code/resourceFailed`` (about `name`) when one cannot
    ///   be made or opened, or is a symbolic link or a file.
    func open(_ folders: [String], in directory: URL, for name: String, making: Bool = true) throws(MultipeerError) -> Lease {
        let key = Key(directory: directory.path, folders: folders)
        let outcome: Result<Lease, MultipeerError> = self.folders.withLock { state in
            Self.acquire(key, making: making, name: name, in: &state)
        }
        return try outcome.get()
    }

    /// Gives `lease` back; the folder is closed once nothing holds it.
    func close(_ lease: Lease) {
        folders.withLock { Self.release(lease, in: &$0) }
    }

    /// The folder of `lease` and its parents were found gone (removed meanwhile): the next file
    /// opens them again from the directory; those open now close once nothing holds them.
    func forget(_ lease: Lease) {
        folders.withLock { state in
            var next: Lease? = lease
            while let current = next, let entry = state.open[current.key], entry.descriptor == current.descriptor {
                state.open[current.key] = nil
                state.forgotten[entry.descriptor] = entry
                next = entry.parent
            }
        }
    }

    private static func acquire(_ key: Key, making: Bool, name: String, in state: inout Folders) -> Result<Lease, MultipeerError> {
        if var entry = state.open[key] {
            entry.users += 1
            state.open[key] = entry
            return .success(Lease(key: key, descriptor: entry.descriptor))
        }
        guard let parentKey = key.parent, let part = key.folders.last else {
            let descriptor = Glibc.open(key.directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { return .failure(.resourceFailed(name, "\(key.directory) cannot take it (\(SourceFile.describe(errno)))")) }
            state.open[key] = Entry(descriptor: descriptor, users: 1, parent: nil)
            return .success(Lease(key: key, descriptor: descriptor))
        }
        let parent: Lease
        switch acquire(parentKey, making: making, name: name, in: &state) {
        case .success(let lease): parent = lease
        case .failure(let error): return .failure(error)
        }
        if making, mkdirat(parent.descriptor, part, 0o700) != 0, errno != EEXIST {
            let error = errno
            release(parent, in: &state)
            return .failure(.resourceFailed(name, "its folder cannot be made in \(key.directory) (\(SourceFile.describe(error)))"))
        }
        let descriptor = openat(parent.descriptor, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            let error = errno
            release(parent, in: &state)
            let what = error == ELOOP || error == ENOTDIR
                ? "\(TerminalText.quoted(key.folders.joined(separator: "/"))) in \(key.directory) is a symbolic link or a file, not a folder (links are not followed)"
                : "its folder cannot be opened in \(key.directory) (\(SourceFile.describe(error)))"
            return .failure(.resourceFailed(name, what))
        }
        state.open[key] = Entry(descriptor: descriptor, users: 1, parent: parent)
        return .success(Lease(key: key, descriptor: descriptor))
    }

    private static func release(_ lease: Lease, in state: inout Folders) {
        if var entry = state.open[lease.key], entry.descriptor == lease.descriptor {
            entry.users -= 1
            guard entry.users == 0 else { return state.open[lease.key] = entry }
            state.open[lease.key] = nil
            closeEntry(entry, in: &state)
        } else if var entry = state.forgotten[lease.descriptor] {
            entry.users -= 1
            guard entry.users == 0 else { return state.forgotten[lease.descriptor] = entry }
            state.forgotten[lease.descriptor] = nil
            closeEntry(entry, in: &state)
        }
    }

    private static func closeEntry(_ entry: Entry, in state: inout Folders) {
        Glibc.close(entry.descriptor)
        if let parent = entry.parent { release(parent, in: &state) }
    }
}
