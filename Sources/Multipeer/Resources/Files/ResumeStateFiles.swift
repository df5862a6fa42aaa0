import Foundation

/// What a ``ResumeStore`` keeps its records in: small files this user alone can read, in a
/// directory of their own. A ``ResourceFiles`` is one.
public protocol ResumeStateFiles: Sendable {
    /// The contents of the file at `url`, not following a symbolic link; nil when there is none.
    /// - Throws: why it cannot be read (it is then removed).
    func readStateFile(at url: URL) throws(FileFailure) -> Data?

    /// Writes `contents` to the file at `url` (`0600`) in a whole, replacing one that was
    /// there, and keeps it open for changes in place.
    /// - Throws: why it cannot be written (nothing is left at `url` then but what was there).
    func createStateFile(at url: URL, contents: Data) throws(FileFailure) -> any StateFile

    /// Removes the file at `url`, if there is one.
    func removeStateFile(at url: URL)

    /// Makes the directory `url` and those on its way (`0700`); false when it cannot be made.
    func makeStateDirectory(_ url: URL) -> Bool

    /// The files in the directory `url` and when each was last written (none when it cannot
    /// be read); a file whose time cannot be told is left out.
    func stateFiles(in url: URL) -> [StateFileEntry]
}

/// A file of a ``ResumeStateFiles``, open for changes in place. Every call may block.
public protocol StateFile: Sendable {
    /// Writes `data` at `offset`; false when not all of it could be written.
    @discardableResult
    func write(_ data: Data, at offset: UInt64) -> Bool

    /// Cuts the file (or extends it) to `size` bytes; false when it could not.
    @discardableResult
    func truncate(to size: UInt64) -> Bool
}

/// A file in a ``ResumeStateFiles`` directory.
public struct StateFileEntry: Sendable, Hashable {
    /// Its name in the directory.
    public let name: String
    /// When it was last written, to the second.
    public let modified: Date

    /// The file `name`, last written at `modified`.
    public init(name: String, modified: Date) {
        self.name = name
        self.modified = modified
    }
}

/// Why a file could not be read or written: a sentence's end, as the system says it.
public struct FileFailure: Error, Sendable, Hashable {
    /// Why, lowercase (such as "permission denied").
    public let reason: String

    /// A failure for `reason`.
    public init(_ reason: String) {
        self.reason = reason
    }
}
