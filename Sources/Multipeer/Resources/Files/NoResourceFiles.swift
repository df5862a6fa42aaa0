import Foundation

/// The disk of a transport that has none (``Transport/makeResourceFiles()``'s default): every
/// file is refused, with a reason that says so; nothing is kept.
struct NoResourceFiles: ResourceFiles {
    private static let reason = "this session's transport has no files"

    func openSource(at url: URL, followingLinks: Bool) throws(MultipeerError) -> any ResourceSource {
        throw .resourceUnreadable(url.path, Self.reason)
    }

    func createPartialFile(at location: PartialFileLocation, temporaryName: String) throws(MultipeerError) -> any PartialResourceFile {
        throw .resourceFailed(location.name, "\(location.directory.path) cannot take it (\(Self.reason))")
    }

    func openPartialFile(at location: PartialFileLocation, temporaryName: String) throws(MultipeerError) -> any PartialResourceFile {
        throw .resourceFailed(location.name, "\(location.directory.path) cannot take it (\(Self.reason))")
    }

    func removePartialFile(at location: PartialFileLocation, temporaryName: String) {}

    func makeFolders(_ folders: [String], in directory: URL, for name: String) throws(MultipeerError) {
        throw .resourceFailed(name, "its folder cannot be made in \(directory.path) (\(Self.reason))")
    }

    /// Runs the work at once: every call of this disk fails without waiting for anything.
    func makeWorkQueue(label: String) -> any FileWorkQueue { Immediate() }

    func readStateFile(at url: URL) throws(FileFailure) -> Data? { nil }

    func createStateFile(at url: URL, contents: Data) throws(FileFailure) -> any StateFile {
        throw FileFailure(Self.reason)
    }

    func removeStateFile(at url: URL) {}

    func makeStateDirectory(_ url: URL) -> Bool { false }

    func stateFiles(in url: URL) -> [StateFileEntry] { [] }

    private struct Immediate: FileWorkQueue {
        func enqueue(_ work: @escaping @Sendable () -> Void) { work() }
    }
}
