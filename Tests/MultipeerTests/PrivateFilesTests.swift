import Foundation
import Multipeer
import MultipeerPOSIX
import MultipeerTestSupport
import Testing

/// The files a peer keeps for its user alone: `0600` in a `0700` directory of the user's own,
/// replaced whole, changed by one program at a time.
@Suite("Private files", .timeLimit(.minutes(1)))
struct PrivateFilesTests {
    let directory = Scratch.path("guessnum-private")

    func mode(_ url: URL) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int) ?? -1
    }

    @Test("A file is its owner's only in a directory of their own, even where that directory already let others in")
    func permissions() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let fresh = directory.appendingPathComponent("fresh/known_hosts")
        try PrivateFiles.write(Data("one\n".utf8), to: fresh, what: "known hosts")
        #expect(try mode(fresh) == 0o600 && mode(fresh.deletingLastPathComponent()) == 0o700)

        let open = directory.appendingPathComponent("open")
        try FileManager.default.createDirectory(at: open, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let file = open.appendingPathComponent("peer-identity")
        try PrivateFiles.write(Data("key\n".utf8), to: file, what: "identity key")
        #expect(try mode(open) == 0o700, "the directory no longer lets others in")
        #expect(try mode(file) == 0o600)
        #expect(try String(contentsOf: file, encoding: .utf8) == "key\n")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: open.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test("A directory that is not the user's own is refused with a sentence, and nothing is written there")
    func someoneElsesDirectory() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        guard geteuid() == 0 else { return }  // only root can give a directory away
        let theirs = directory.appendingPathComponent("theirs")
        try FileManager.default.createDirectory(at: theirs, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
        #expect(chown(theirs.path, 65_534, 65_534) == 0)
        let file = theirs.appendingPathComponent("known_hosts")
        let error = #expect(throws: MultipeerError.self) { try PrivateFiles.write(Data("x".utf8), to: file, what: "known hosts") }
        #expect(error?.code == .identityStorage)
        #expect(error?.message.contains("not a directory of your own") == true, "\(error?.message ?? "")")
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("Changes made at once by several programs are all kept: each reads and writes under the file's lock")
    func concurrentUpdates() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("list")
        let writers = 16
        // Threads of their own, as separate programs would be: each opens the lock on its own.
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<writers {
                group.addTask {
                    await onOwnThread {
                        try? PrivateFiles.update(file, what: "list") { current in
                            let lines = current.map { String(decoding: $0, as: UTF8.self) } ?? ""
                            usleep(2_000)  // a slow reader: without the lock, others write meanwhile
                            return Data((lines + "writer \(index)\n").utf8)
                        }
                    }
                }
            }
        }
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        #expect(Set(lines) == Set((0..<writers).map { "writer \($0)" }), "\(lines.count) of \(writers) changes kept")
    }
}
