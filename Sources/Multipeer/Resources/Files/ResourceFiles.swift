import Foundation

/// The disk a session's resources are read from and written to: the files it sends, the
/// partial files it receives into and puts in place, and the folders they go in. The core
/// makes no system call of its own; `MultipeerPOSIX`'s `POSIXResourceFiles` is the disk of a
/// POSIX system, which `MultipeerNIO`'s `TCPTransport` hands its sessions
/// (``Transport/makeResourceFiles()``).
///
/// Every call but ``PartialResourceFile/place(linked:)`` may block: the session makes them on a
/// queue of the disk's own (``makeWorkQueue(label:)``), never on Swift's cooperative pool.
///
/// A disk also keeps a ``ResumeStore``'s records (``ResumeStateFiles``).
public protocol ResourceFiles: ResumeStateFiles {
    /// Opens the file at `url` to send it; without `followingLinks`, a symbolic link is
    /// refused, not followed. Only a regular file is opened.
    /// - Throws: ``MultipeerError/Code/resourceUnreadable``, with why.
    func openSource(at url: URL, followingLinks: Bool) throws(MultipeerError) -> any ResourceSource

    /// Makes the partial file `temporaryName` for a resource at `location`, readable by this
    /// user alone, and the folders of its path when missing (`0700`), each opened from its
    /// parent without following a symbolic link, so that nothing is written outside
    /// ``PartialFileLocation/directory``. A file of that name left from before is replaced.
    /// - Throws: ``MultipeerError/Code/resourceFailed`` when it cannot be made, or when one of
    ///   its folders is a symbolic link or not a folder.
    func createPartialFile(at location: PartialFileLocation, temporaryName: String) throws(MultipeerError) -> any PartialResourceFile

    /// Opens the partial file `temporaryName` kept from before at `location`, its folders
    /// opened (or made) as ``createPartialFile(at:temporaryName:)`` does, no link followed.
    /// - Throws: ``MultipeerError/Code/resourceFailed`` when it is not there or cannot be opened.
    func openPartialFile(at location: PartialFileLocation, temporaryName: String) throws(MultipeerError) -> any PartialResourceFile

    /// Removes the partial file `temporaryName` kept at `location`, if its folders are there
    /// (none is made, no link followed).
    func removePartialFile(at location: PartialFileLocation, temporaryName: String)

    /// Makes `folders` (the parts of a path) under `directory`, as a resource's folders are
    /// made (``createPartialFile(at:temporaryName:)``); one there already is kept.
    /// - Throws: ``MultipeerError/Code/resourceFailed``, naming `name`, when a folder cannot be
    ///   made, or a symbolic link or a file is where one should be.
    func makeFolders(_ folders: [String], in directory: URL, for name: String) throws(MultipeerError)

    /// A serial queue for this disk's blocking calls, on a thread outside Swift's cooperative
    /// pool (which has one thread per core): a slow disk stalls the transfer that waits for it,
    /// never the program's other tasks.
    func makeWorkQueue(label: String) -> any FileWorkQueue
}

/// Where a received resource's partial file goes: the directory it was accepted into, and the
/// folders of its path (``ResourcePath``) under it.
public struct PartialFileLocation: Sendable, Hashable {
    /// The directory the resource was accepted into.
    public let directory: URL
    /// The resource's name, or its path inside the directory.
    public let name: String
    /// The folders of ``name`` under ``directory``; none for a plain name.
    public let folders: [String]
    /// The last part of ``name``: the name the file is put in place under.
    public let fileName: String

    /// The location of the resource `name` (a ``ResourceName`` or a ``ResourcePath``, already
    /// checked) in `directory`.
    public init(name: String, in directory: URL) {
        self.directory = directory
        self.name = name
        let parts = ResourcePath.parts(of: name)
        fileName = parts.last ?? name
        folders = Array(parts.dropLast())
    }

    /// The folder the file goes in: the directory, and the path's folders under it.
    public var folder: URL {
        folders.reduce(directory) { $0.appendingPathComponent($1, isDirectory: true) }
    }
}

/// A serial queue of blocking file work (``ResourceFiles/makeWorkQueue(label:)``).
public protocol FileWorkQueue: Sendable {
    /// Runs `work` after the work enqueued before it, off Swift's cooperative pool.
    func enqueue(_ work: @escaping @Sendable () -> Void)
}
