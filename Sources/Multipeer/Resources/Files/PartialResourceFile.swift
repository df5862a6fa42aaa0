import Foundation

/// Where a received resource's bytes go until they are checked, made or reopened by a
/// ``ResourceFiles``: a file readable by this user alone, hidden beside its destination, then
/// put in place under a name that no file has (``ResourceFileNames/candidate(_:attempt:)``),
/// so that nothing is ever overwritten. Every call but ``place(linked:)`` may block.
///
/// It lets go of what it holds open once the file is in place or discarded, not when the last
/// reference goes: an application may keep its ``IncomingResource`` after the end.
public protocol PartialResourceFile: AnyObject, Sendable {
    /// Where the resource goes.
    var location: PartialFileLocation { get }
    /// The hidden name of the partial file in ``PartialFileLocation/folder``.
    var temporaryName: String { get }

    /// Up to `count` bytes at `offset` of the file; nil when they cannot be read.
    func read(at offset: UInt64, count: Int) -> Data?

    /// Writes `data` at `offset`; with `writingBack`, starts writing it to the disk at once,
    /// without waiting, so that the sync before the file is put in place has little left to do.
    /// - Throws: ``MultipeerError/Code/resourceFailed``.
    func write(_ data: Data, at offset: UInt64, writingBack: Bool) throws(MultipeerError)

    /// Lets go of the file, keeping it on the disk for a transfer that goes on after a restart.
    func keep()

    /// Removes the partial file.
    func discard()

    /// Puts the file in place once its bytes are on the disk: its bytes synced, the file linked
    /// under the first free name, its folder synced, so that when this returns a crash can lose
    /// neither the file nor its name; returns where it is. `linked` is called with where it is
    /// as soon as it is linked, before its folder is synced (on the disk's own thread).
    /// - Throws: ``MultipeerError/Code/resourceFailed``.
    func place(linked: @escaping @Sendable (URL) -> Void) async throws(MultipeerError) -> URL

    /// Puts the file in place as ``place(linked:)`` does, without waiting for it: `done` is
    /// called once with where it is, or why it is not (on the disk's own thread, or at once).
    /// A file queue's job asks for it right after the file's last write and its check, so
    /// that no hop to Swift's pool comes between them.
    func place(linked: @escaping @Sendable (URL) -> Void, done: @escaping @Sendable (Result<URL, MultipeerError>) -> Void)
}

extension PartialResourceFile {
    /// Puts the file in place with ``place(linked:)`` in a task of its own, then calls `done`.
    public func place(linked: @escaping @Sendable (URL) -> Void, done: @escaping @Sendable (Result<URL, MultipeerError>) -> Void) {
        Task {
            do throws(MultipeerError) {
                done(.success(try await place(linked: linked)))
            } catch {
                done(.failure(error))
            }
        }
    }

    /// Where the partial file is.
    var temporary: URL { location.folder.appendingPathComponent(temporaryName, isDirectory: false) }

    /// Writes `data` at `offset`, leaving it to the system when to write it to the disk.
    func write(_ data: Data, at offset: UInt64) throws(MultipeerError) {
        try write(data, at: offset, writingBack: false)
    }
}

/// The names of a received resource's files.
public enum ResourceFileNames {
    /// The most bytes a file name may have (Linux's `NAME_MAX`).
    public static let maximumNameBytes = 255

    /// The hidden name of `name`'s partial file: `.NAME.TAG.part`, NAME cut at a character so
    /// that the whole stays within ``maximumNameBytes`` (a resource's name may have them all).
    public static func temporaryName(for name: String, tag: String) -> String {
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

    /// The `attempt`th name tried for `name` when a file is put in place: itself, then
    /// "photo (2).jpg", "photo (3).jpg"…
    public static func candidate(_ name: String, attempt: Int) -> String {
        guard attempt > 1 else { return name }
        let base = name as NSString
        let stem = base.deletingPathExtension
        let suffix = base.pathExtension
        return suffix.isEmpty || stem.isEmpty ? "\(name) (\(attempt))" : "\(stem) (\(attempt)).\(suffix)"
    }
}
