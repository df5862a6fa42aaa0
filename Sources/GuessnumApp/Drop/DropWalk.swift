import Foundation
import Multipeer
#if canImport(Glibc)
import Glibc
#endif

/// One thing a ``DropWalk`` came to.
public enum DropWalkEntry: Sendable, Equatable {
    /// A regular file to send: where it is, the path the receiver sees (a ``ResourcePath``),
    /// and its size when the walk came to it.
    case file(url: URL, path: String, size: Int64)
    /// Something that is not sent: its path, and why (completing "… is left out: …").
    case leftOut(path: String, reason: String)
    /// A folder with nothing to send in it (nothing at all, or only what is left out): the
    /// receiver makes it, so that the structure is kept. Its path is a ``ResourcePath``.
    case emptyFolder(path: String)
}

/// The files under the items named to `guessnum send`, one at a time, as the walk comes to
/// them: it holds an open directory for each folder on the way down and nothing per file, so a
/// folder of any size costs the same memory (the listing is streamed, never built).
///
/// Each item named is taken under its own name, as a file or a folder (a symbolic link named
/// on the command line is the person's choice and is followed). Inside a folder nothing is
/// followed: a symbolic link, a device or a socket is left out, and each folder is opened from
/// its parent's descriptor with `O_NOFOLLOW`. Every name is checked by the rule a single file's
/// name is (``ResourceName``) and every path by ``ResourcePath``: what breaks them (a hidden
/// `.name`, a backslash, a control character, a path too deep) is left out with the rule's
/// reason, never renamed. A folder with nothing to send in it is an entry of its own
/// (``DropWalkEntry/emptyFolder(path:)``), once the walk has read it to its end.
public final class DropWalk: IteratorProtocol {
    /// A folder being read: its stream of entries, where it is, and its path as the receiver sees it.
    private struct Level {
        let stream: OpaquePointer
        let url: URL
        let path: String
        /// Whether a file or a folder to send was found in it.
        var hasContent = false
    }

    private var roots: [URL]
    private var levels: [Level] = []

    /// A walk over `items`, in their order.
    public init(_ items: [URL]) {
        roots = items.reversed()
    }

    deinit {
        for level in levels { closedir(level.stream) }
    }

    /// The name an item named on the command line is sent under: its last part, as given.
    public static func name(of item: URL) -> String {
        item.standardizedFileURL.lastPathComponent
    }

    /// The next file or left-out entry, in the order the folders list them; nil at the end.
    public func next() -> DropWalkEntry? {
        while true {
            guard let level = levels.last else {
                guard let root = roots.popLast() else { return nil }
                if let entry = start(root) { return entry }
                continue
            }
            guard let found = readdir(level.stream) else {
                closedir(level.stream)
                levels.removeLast()
                if !level.hasContent { return .emptyFolder(path: level.path) }
                continue
            }
            let name = withUnsafePointer(to: found.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(validatingCString: $0) }
            }
            if name == "." || name == ".." { continue }
            let depth = levels.count
            let entry = visit(name, in: level)
            if case .file? = entry { levels[depth - 1].hasContent = true }
            if levels.count > depth { levels[depth - 1].hasContent = true }  // a folder went in: it says for itself
            if let entry { return entry }
        }
    }

    /// Starts on an item named on the command line: a file is the entry, a folder is opened.
    private func start(_ root: URL) -> DropWalkEntry? {
        let name = Self.name(of: root)
        if let problem = ResourceName.problem(with: name) { return .leftOut(path: name, reason: "its name \(problem)") }
        var info = stat()
        guard stat(root.path, &info) == 0 else { return .leftOut(path: name, reason: Self.describe(errno)) }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            // Where a link named on the command line leads: the file is opened without following one.
            return .file(url: root.resolvingSymlinksInPath(), path: name, size: Int64(info.st_size))
        case S_IFDIR:
            let descriptor = open(root.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            return push(descriptor, url: root, path: name)
        default:
            return .leftOut(path: name, reason: "it is not a regular file or a folder")
        }
    }

    /// The entry `name` of the folder `level`: a file, a folder to go into, or something left out.
    private func visit(_ name: String?, in level: Level) -> DropWalkEntry? {
        guard let name else { return .leftOut(path: level.path + "/…", reason: "its name is not UTF-8") }
        let path = level.path + "/" + name
        if let problem = ResourceName.problem(with: name) { return .leftOut(path: path, reason: "its name \(problem)") }
        if let problem = ResourcePath.problem(with: path) { return .leftOut(path: path, reason: "its path \(problem)") }
        let folder = dirfd(level.stream)
        var info = stat()
        guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return .leftOut(path: path, reason: Self.describe(errno)) }
        let url = level.url.appendingPathComponent(name)
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            return .file(url: url, path: path, size: Int64(info.st_size))
        case S_IFDIR:
            return push(openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), url: url, path: path)
        case S_IFLNK:
            return .leftOut(path: path, reason: "it is a symbolic link, which is not followed")
        default:
            return .leftOut(path: path, reason: "it is not a regular file or a folder")
        }
    }

    /// Goes into the folder opened as `descriptor`; the entry that says why not when it failed.
    private func push(_ descriptor: Int32, url: URL, path: String) -> DropWalkEntry? {
        guard descriptor >= 0 else { return .leftOut(path: path, reason: "its folder cannot be read (\(Self.describe(errno)))") }
        guard let stream = fdopendir(descriptor) else {
            let error = errno
            close(descriptor)
            return .leftOut(path: path, reason: "its folder cannot be read (\(Self.describe(error)))")
        }
        levels.append(Level(stream: stream, url: url, path: path))
        return nil
    }

    private static func describe(_ error: Int32) -> String {
        String(cString: strerror(error)).lowercased()
    }
}
