import Foundation

/// What a set holds, counted by a first walk (``DropWalk``) before it is offered: its files
/// and bytes, the kinds of the items named, and what is left out (the first few named).
public struct DropSetCount: Sendable, Equatable {
    /// The files that will be sent.
    public var files = 0
    /// Their bytes in all.
    public var bytes: Int64 = 0
    /// Items named that are folders.
    public var folders = 0
    /// Items named that are files.
    public var looseFiles = 0
    /// Folders with nothing to send in them, made on the receiver's side.
    public var emptyFolders = 0
    /// Everything left out, counted.
    public var leftOut = 0
    /// The first ``keptLeftOut`` left out, as the walk said them.
    public var firstLeftOut: [DropWalkEntry] = []

    /// The most left-out entries kept to be named.
    public static let keptLeftOut = 5

    /// Counts what `items` hold, walking them once (the walk keeps no list: the memory is the
    /// same for any number of files).
    public static func count(_ items: [URL]) -> DropSetCount {
        var count = DropSetCount()
        for item in items {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: item.path, isDirectory: &isDirectory) {
                if isDirectory.boolValue { count.folders += 1 } else { count.looseFiles += 1 }
            }
        }
        let walk = DropWalk(items)
        while let entry = walk.next() {
            switch entry {
            case .file(_, _, let size):
                count.files += 1
                count.bytes += size
            case .emptyFolder:
                count.emptyFolders += 1
            case .leftOut:
                count.leftOut += 1
                if count.firstLeftOut.count < keptLeftOut { count.firstLeftOut.append(entry) }
            }
        }
        return count
    }

    /// The offer of these files as set `set`.
    public func offer(set: UUID) -> DropSetOffer {
        DropSetOffer(set: set, files: files, bytes: bytes, folders: folders, looseFiles: looseFiles, emptyFolders: emptyFolders)
    }
}
