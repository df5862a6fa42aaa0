import Foundation
import Multipeer
import MultipeerPOSIX

extension DropBox {
    /// `guessnum receive` as a person or a script runs it: into `directory` (nil: the current
    /// one), asking about each offer unless `acceptAll`, until Ctrl-C (or, with `once`, the
    /// first file's end); lines for a person, or JSON lines (`json`). Returns the exit code.
    /// - Parameter notice: a sentence about the player's key to print first, if any.
    /// - Throws: ``AppFailure`` (usage) when `directory` is not one; the box's failures.
    public static func receive(
        into directory: String?, session: Session, discovery: any DiscoveryBackend, acceptAll: Bool, once: Bool, json: Bool, port: Int?,
        notice: String?
    ) async throws -> Int32 {
        let folder = URL(fileURLWithPath: directory ?? FileManager.default.currentDirectoryPath, isDirectory: true).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw AppFailure("\(folder.path) is not a directory; make it first, or name another.", .usage)
        }
        let out: any DropOutput = json ? DropJSONOutput() : DropTerminalOutput()
        if let notice { out.line(notice) }
        let box = DropBox(
            session: session, discovery: discovery, directory: folder, acceptAll: acceptAll, once: once, output: out,
            command: ProgramCommand.current(), store: ResumeStore.standard(application: "guessnum"),
            ask: { question in
                out.line(question)
                let answer = await onOwnThread { readLine() }
                return YesAnswer.isYes(answer)
            })
        let interrupt = InterruptSource { box.stop() }
        defer { interrupt.cancel() }
        return try await box.run(port: port)
    }
}
