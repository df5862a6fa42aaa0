import Foundation

/// The rule for a resource's name (see `docs/PROTOCOL.md` §3.9): a file name, never a path.
///
/// A ``StreamName`` (1 to 255 bytes of UTF-8 without control characters) that is also safe
/// as the last part of a path on any system: no `/` or `\`, not `.` or `..`, and not starting
/// with a dot, so a received file is never written outside the directory chosen for it, never
/// hidden, and prints as itself.
public enum ResourceName {
    /// What is wrong with `name`, completing "a resource name that …", or nil when it is valid.
    public static func problem(with name: String) -> String? {
        if let problem = StreamName.problem(with: name) { return problem }
        if name.contains("/") || name.contains("\\") { return "is a path (it contains a slash)" }
        if name.hasPrefix(".") { return "starts with a dot" }
        return nil
    }
}

/// The rule for the name of a resource sent inside a folder (``WireProtocol/Feature/folders``,
/// `docs/PROTOCOL.md` §3.9): a relative path whose every part is a ``ResourceName`` — so never
/// absolute, never `..`, never hidden — joined by `/`, with at most ``maximumParts`` parts and
/// ``maximumBytes`` bytes in all.
public enum ResourcePath {
    /// The most bytes of UTF-8 a path may have in all (Linux's `PATH_MAX`).
    public static let maximumBytes = 4096
    /// The most parts (folders and the file's name) a path may have.
    public static let maximumParts = 64

    /// The parts of `path`, split at `/` (empty parts kept, so that the rule refuses them).
    public static func parts(of path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    }

    /// What is wrong with `path`, completing "a resource path that …", or nil when it is valid:
    /// the first part that breaks the ``ResourceName`` rule, named, or a path too long or deep.
    public static func problem(with path: String) -> String? {
        let count = path.utf8.count
        if count > maximumBytes { return "is \(count) bytes long (limit \(maximumBytes))" }
        let parts = parts(of: path)
        if parts.count > maximumParts { return "has \(parts.count) parts (limit \(maximumParts))" }
        for part in parts {
            if let problem = ResourceName.problem(with: part) {
                return part.isEmpty ? "has an empty part (a leading, doubled or trailing slash)" : "has a part “\(part)” that \(problem)"
            }
        }
        return nil
    }
}

extension ResourcePath {
    /// Makes the folder `path` under `directory`, and the folders on its way, as the folders of
    /// a resource sent under a path are made: mode `0700`, each opened from its parent without
    /// following a symbolic link, nothing made outside `directory`; a folder that is there
    /// already is kept. The folders are made on `files`, a session's
    /// (``Session/resourceFiles``).
    ///
    /// - Throws: ``MultipeerError/Code/invalidResourceName`` for a path that breaks the rule;
    ///   ``MultipeerError/Code/resourceFailed`` when a folder cannot be made, or a symbolic
    ///   link or a file is where one of them should be.
    public static func makeFolder(_ path: String, in directory: URL, on files: any ResourceFiles) throws(MultipeerError) {
        if let problem = problem(with: path) { throw .invalidResourceName(path, problem) }
        try files.makeFolders(parts(of: path), in: directory, for: path)
    }
}
