import Dispatch
import Foundation
import Multipeer

/// The disk of a POSIX system, for a session's resources (`Multipeer`'s `ResourceFiles`): the
/// files it sends opened once and read at offsets; the files it receives written to hidden
/// partial files (`0600`) made from their folder's descriptor without following a symbolic
/// link (the folders kept open while files of theirs are under way: ``OpenFolders``), then put in place durably in groups (a group commit: one `syncfs` for the files of a
/// round on one file system, their folders synced after they are linked); a `ResumeStore`'s
/// records (``POSIXResumeStateFiles``). Its blocking calls run on dispatch queues of their own,
/// off Swift's cooperative pool.
///
/// `MultipeerNIO`'s `TCPTransport` makes one for each of its sessions
/// (`Transport.makeResourceFiles()`); the files of a session are synced in groups together.
public final class POSIXResourceFiles: ResourceFiles {
    /// Makes received files durable, in groups (``DiskSync``).
    let diskSync: DiskSync
    private let state = POSIXResumeStateFiles()
    /// The folders of the files being received, open while files of theirs are under way.
    let openFolders = OpenFolders()

    /// A disk whose received files are synced in groups of their own.
    public convenience init() {
        self.init(diskSync: DiskSync())
    }

    init(diskSync: DiskSync) {
        self.diskSync = diskSync
    }

    /// Opens the file at `url` once (`O_NOFOLLOW` without `followingLinks`); only a regular file.
    public func openSource(at url: URL, followingLinks: Bool) throws(MultipeerError) -> any ResourceSource {
        try SourceFile(url, followingLinks: followingLinks)
    }

    /// Makes `.NAME.TAG.part` (`0600`, `O_EXCL`, replacing one left from before) from the
    /// descriptor of its folder, each folder made `0700` and opened without following a link.
    public func createPartialFile(at location: PartialFileLocation, temporaryName: String) throws(MultipeerError) -> any PartialResourceFile {
        try PartialFile(at: location, temporaryName: temporaryName, creating: true, disk: diskSync, folders: openFolders)
    }

    /// Opens the partial file kept from before, from its folder's descriptor, no link followed.
    public func openPartialFile(at location: PartialFileLocation, temporaryName: String) throws(MultipeerError) -> any PartialResourceFile {
        try PartialFile(at: location, temporaryName: temporaryName, creating: false, disk: diskSync, folders: openFolders)
    }

    /// Removes the partial file kept from before (`unlinkat`), if its folders are there.
    public func removePartialFile(at location: PartialFileLocation, temporaryName: String) {
        PartialFile.removeKept(temporaryName, at: location, folders: openFolders)
    }

    /// Makes the folders `0700`, each from its parent's descriptor without following a link.
    public func makeFolders(_ folders: [String], in directory: URL, for name: String) throws(MultipeerError) {
        try PartialFile.makeFolders(folders, in: directory, for: name, open: openFolders)
    }

    /// A serial dispatch queue, off Swift's cooperative pool.
    public func makeWorkQueue(label: String) -> any FileWorkQueue {
        DispatchFileQueue(label: label)
    }

    /// As ``POSIXResumeStateFiles`` does.
    public func readStateFile(at url: URL) throws(FileFailure) -> Data? {
        try state.readStateFile(at: url)
    }

    /// As ``POSIXResumeStateFiles`` does.
    public func createStateFile(at url: URL, contents: Data) throws(FileFailure) -> any StateFile {
        try state.createStateFile(at: url, contents: contents)
    }

    /// As ``POSIXResumeStateFiles`` does.
    public func removeStateFile(at url: URL) {
        state.removeStateFile(at: url)
    }

    /// As ``POSIXResumeStateFiles`` does.
    public func makeStateDirectory(_ url: URL) -> Bool {
        state.makeStateDirectory(url)
    }

    /// The files in `url`, each with its modification time (`lstat`, to the second).
    public func stateFiles(in url: URL) -> [StateFileEntry] {
        state.stateFiles(in: url)
    }
}

/// A serial dispatch queue of file work.
struct DispatchFileQueue: FileWorkQueue {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }
}
