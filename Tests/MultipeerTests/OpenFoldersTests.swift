import Foundation
import Multipeer
import Testing

@testable import MultipeerPOSIX

/// The folders of received files kept open while files of theirs are under way
/// (``OpenFolders``): a file in an open folder walks no path; a symbolic link where a folder is
/// is still refused; every folder descriptor is closed once its files have ended; a folder
/// removed meanwhile is made again; a file that fails loses no other.
@Suite("Drop: received files' folders kept open while their files are under way", .timeLimit(.minutes(1)))
struct OpenFoldersTests {
    /// A fresh directory for one test, removed after it.
    final class Directory {
        let url: URL
        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("open-folders-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(at: url) }
        func path(_ relative: String) -> String { url.appendingPathComponent(relative).path }
    }

    static func partial(_ files: POSIXResourceFiles, _ name: String, in directory: URL, tag: String = "t") throws -> PartialFile {
        let location = PartialFileLocation(name: name, in: directory)
        return try #require(try files.createPartialFile(at: location, temporaryName: ".\(location.fileName).\(tag).part") as? PartialFile)
    }

    /// Where descriptor `descriptor` of this process points now, if it is open.
    static func target(of descriptor: Int32) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")
    }

    @Test("files of one folder share its open descriptors (the directory, each folder on the way); all are closed once the last file is placed or discarded")
    func sharedThenClosed() async throws {
        let directory = try Directory()
        let files = POSIXResourceFiles()
        let first = try Self.partial(files, "a/b/one", in: directory.url)
        #expect(files.openFolders.openCount == 3)  // the directory, a, a/b
        let second = try Self.partial(files, "a/b/two", in: directory.url)
        let third = try Self.partial(files, "a/c/three", in: directory.url)
        #expect(files.openFolders.openCount == 4)  // and a/c
        let lease = try files.openFolders.open(["a", "b"], in: directory.url, for: "a/b")
        #expect(Self.target(of: lease.descriptor) == directory.path("a/b"))
        files.openFolders.close(lease)
        try first.write(Data("one".utf8), at: 0, writingBack: false)
        let url = try await first.place { _ in }
        #expect(url.path == directory.path("a/b/one"))
        second.discard()
        #expect(files.openFolders.openCount == 3)  // a/b closed with its last file; a/c holds a and the directory
        third.keep()
        #expect(files.openFolders.openCount == 0)
        #expect(Self.target(of: lease.descriptor) != directory.path("a/b"))
        #expect(try String(contentsOfFile: directory.path("a/b/one"), encoding: .utf8) == "one")
    }

    @Test("a symbolic link where a folder is, made while the folder above it is open, is refused and never followed; the folders open stay as they were")
    func linkBesideAnOpenFolder() throws {
        let directory = try Directory()
        let outside = try Directory()
        let files = POSIXResourceFiles()
        let held = try Self.partial(files, "a/held", in: directory.url)
        #expect(files.openFolders.openCount == 2)
        try FileManager.default.createSymbolicLink(atPath: directory.path("a/link"), withDestinationPath: outside.url.path)
        #expect {
            _ = try Self.partial(files, "a/link/file", in: directory.url)
        } throws: { error in
            (error as? MultipeerError)?.message.contains("is a symbolic link or a file, not a folder (links are not followed)") == true
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.url.path).isEmpty)
        #expect(files.openFolders.openCount == 2)
        held.discard()
        #expect(files.openFolders.openCount == 0)
    }

    @Test("a folder removed while it is open is made again for the next file, which is placed in it; the removed one's descriptors close with their file")
    func removedMeanwhile() async throws {
        let directory = try Directory()
        let files = POSIXResourceFiles()
        let before = try Self.partial(files, "a/b/before", in: directory.url)
        try FileManager.default.removeItem(atPath: directory.path("a"))
        let after = try Self.partial(files, "a/b/after", in: directory.url)
        try after.write(Data("after".utf8), at: 0, writingBack: false)
        let url = try await after.place { _ in }
        #expect(url.path == directory.path("a/b/after"))
        #expect(try String(contentsOfFile: directory.path("a/b/after"), encoding: .utf8) == "after")
        #expect(files.openFolders.openCount == 3)  // the removed a and a/b, held by the file before
        before.discard()
        #expect(files.openFolders.openCount == 0)
    }

    @Test("a file that fails (its folder is a file) or is discarded loses no other file of the open folders: they are placed")
    func failureLosesNoOther() async throws {
        let directory = try Directory()
        let files = POSIXResourceFiles()
        let kept = try Self.partial(files, "a/kept", in: directory.url)
        let dropped = try Self.partial(files, "a/dropped", in: directory.url)
        #expect(FileManager.default.createFile(atPath: directory.path("a/file"), contents: Data()))
        #expect(throws: MultipeerError.self) { _ = try Self.partial(files, "a/file/x", in: directory.url) }
        dropped.discard()
        #expect(files.openFolders.openCount == 2)
        try kept.write(Data("kept".utf8), at: 0, writingBack: false)
        let url = try await kept.place { _ in }
        #expect(url.path == directory.path("a/kept"))
        #expect(try String(contentsOfFile: directory.path("a/kept"), encoding: .utf8) == "kept")
        #expect(!FileManager.default.fileExists(atPath: directory.path("a/.dropped.t.part")))
        #expect(files.openFolders.openCount == 0)
    }

    @Test("a folder made for a set's empty folder, or a kept partial file removed, leaves nothing open")
    func foldersAndRemovals() throws {
        let directory = try Directory()
        let files = POSIXResourceFiles()
        try files.makeFolders(["x", "y"], in: directory.url, for: "x/y")
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: directory.path("x/y"), isDirectory: &isFolder) && isFolder.boolValue)
        let kept = try Self.partial(files, "x/y/z", in: directory.url)
        kept.keep()
        #expect(FileManager.default.fileExists(atPath: directory.path("x/y/.z.t.part")))
        files.removePartialFile(at: PartialFileLocation(name: "x/y/z", in: directory.url), temporaryName: ".z.t.part")
        #expect(!FileManager.default.fileExists(atPath: directory.path("x/y/.z.t.part")))
        #expect(files.openFolders.openCount == 0)
    }
}
