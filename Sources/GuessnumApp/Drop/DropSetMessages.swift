import Foundation
import Multipeer

/// `guessnum send` offers a set: several files and folders in one offer, asked about once
/// (`docs/PROTOCOL.md`, appendix "the file drop's sets"). Its files follow as resources whose
/// names are paths, once the receiver accepted.
public struct DropSetOffer: SessionMessage, Hashable {
    public static let messageType = "guessnum.drop.v1.set-offer"
    /// The set's random id, which its answer and end name.
    public let set: UUID
    /// The files it holds, in all its folders.
    public let files: Int
    /// Their bytes in all.
    public let bytes: Int64
    /// How many of the items named are folders.
    public let folders: Int
    /// How many of the items named are files.
    public let looseFiles: Int
    /// How many folders with nothing to send in them come (``DropSetFolders``); nil from a
    /// sender of an earlier release, which sends none.
    public let emptyFolders: Int?

    public init(set: UUID, files: Int, bytes: Int64, folders: Int, looseFiles: Int, emptyFolders: Int? = nil) {
        self.set = set
        self.files = files
        self.bytes = bytes
        self.folders = folders
        self.looseFiles = looseFiles
        self.emptyFolders = emptyFolders
    }

    /// Whether the counts make sense: at least one file, no negative count, and no more items
    /// named than files.
    public var isValid: Bool {
        files >= 1 && bytes >= 0 && folders >= 0 && looseFiles >= 0 && folders + looseFiles >= 1 && looseFiles <= files
    }

    /// What the set is, as the question and both sides' lines say it: "2 files and a folder:
    /// 414 files, 2.3 GB", "3 files (1.2 MB)".
    public var summary: String {
        var items: [String] = []
        if looseFiles > 0 { items.append(looseFiles == 1 ? "a file" : "\(looseFiles) files") }
        if folders > 0 { items.append(folders == 1 ? "a folder" : "\(folders) folders") }
        let named = items.joined(separator: " and ")
        let size = TransferMeter.bytes(bytes)
        return folders > 0 ? "\(named): \(Self.files(files)), \(size)" : "\(named) (\(size))"
    }

    /// "1 file", "414 files".
    public static func files(_ count: Int) -> String {
        count == 1 ? "1 file" : "\(count) files"
    }
}

/// The receiver's answer to a ``DropSetOffer``.
public struct DropSetAnswer: SessionMessage, Hashable {
    public static let messageType = "guessnum.drop.v1.set-answer"
    /// The set answered.
    public let set: UUID
    /// Whether its files may come.
    public let accepted: Bool
    /// Why not, for people (a declined set).
    public let reason: String?
    /// How many files of the set, past the 16 receiving their bytes, the receiver takes while
    /// their bytes are put in place (an accepted set); nil from a receiver of an earlier
    /// release, which counts them among its 16.
    public let placing: Int?

    public init(set: UUID, accepted: Bool, reason: String?, placing: Int? = nil) {
        self.set = set
        self.accepted = accepted
        self.reason = reason
        self.placing = placing
    }
}

/// Folders of the set with nothing to send in them, for the receiver to make under its
/// directory (at most ``DropSetOffer/emptyFolders`` in all, sent in batches of ``batch``
/// before the set's end). A receiver of an earlier release ignores the message.
public struct DropSetFolders: SessionMessage, Hashable {
    public static let messageType = "guessnum.drop.v1.set-folders"
    /// The most paths in one message.
    public static let batch = 64
    /// The set they belong to.
    public let set: UUID
    /// Their paths (``ResourcePath``: the first part is the item named's own name).
    public let paths: [String]

    public init(set: UUID, paths: [String]) {
        self.set = set
        self.paths = paths
    }
}

/// The sender has had the outcome of every file of the set it offered: nothing more comes.
public struct DropSetEnd: SessionMessage, Hashable {
    public static let messageType = "guessnum.drop.v1.set-end"
    /// The set that ended.
    public let set: UUID
    /// The files of the offer that were never offered after all (they could not be read, or
    /// changed after they were counted).
    public let notOffered: Int

    public init(set: UUID, notOffered: Int) {
        self.set = set
        self.notOffered = notOffered
    }
}
