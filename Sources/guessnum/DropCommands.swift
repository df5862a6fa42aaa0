import ArgumentParser
import Dispatch
import Foundation
import GuessnumApp
import Logging
import Multipeer
import MultipeerAvahi
import MultipeerNIO

/// `guessnum send`: send files and folders to someone running `guessnum receive` on the LAN.
struct SendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send files and folders to someone running `guessnum receive`: pick them from the receivers nearby, or give their address or code.",
        discussion: "Several files and folders go as one offer, asked about once; folders keep their structure under the receiver's directory. "
            + "Inside folders, symbolic links and hidden (dot) names are left out; empty folders are made on the receiver's side. "
            + "Sending the same files again to the same receiver goes on from what it kept (after either program restarted), and skips the files it saved already."
    )

    @Argument(help: ArgumentHelp(
        "The files and folders to send, then optionally the receiver's address or join code (as `guessnum receive` prints them) to send to it without looking for receivers.",
        valueName: "file-or-folder"))
    var arguments: [String]

    @Option(help: ArgumentHelp("Send to the receiver of this name as soon as it is found (for scripts).", valueName: "name"))
    var to: String?

    @Option(name: .customLong("as"), help: ArgumentHelp("The name the receiver sees for the file, when one file is sent (default: the file's own name).", valueName: "file-name"))
    var fileName: String?

    @Option(help: "Your name as the receiver sees it (default: your login name).")
    var name: String?

    @Option(name: .customLong("timeout"), parsing: .unconditional, help: "Seconds to wait for the receiver to be found or to answer (default: 30).")
    var timeoutGiven: Int?
    var timeout: Int { timeoutGiven ?? 30 }

    @Flag(help: "Write one JSON object a line for scripts: each sentence a message event, the transfer's progress a progress event at each whole percent.")
    var json = false

    @OptionGroup var dns: SiteDNSOptions

    @OptionGroup var output: LogOptions

    /// The files and folders named, and the receiver's address or code when the last argument
    /// is one: of two or more arguments, the last is the receiver unless it is a path on disk.
    func parsed() throws -> (items: [String], target: DropTarget?) {
        guard arguments.count >= 2, let last = arguments.last, !FileManager.default.fileExists(atPath: last) else { return (arguments, nil) }
        do {
            return (Array(arguments.dropLast()), try Self.parseTarget(last))
        } catch let error as MultipeerError {
            throw ValidationError("There is no file \(last), and as the receiver: \(error.message)")
        }
    }

    func validate() throws {
        guard timeout >= 1 else { throw ValidationError("--timeout must be at least 1 second.") }
        guard !arguments.isEmpty else { throw ValidationError("Name a file or folder to send.") }
        let (items, target) = try parsed()
        if target != nil, to != nil { throw ValidationError("Give either an address or code, or --to, not both.") }
        for item in items where !FileManager.default.fileExists(atPath: item) { throw ValidationError("There is no file \(item).") }
        if let fileName {
            guard !isSet(items) else { throw ValidationError("--as names the one file sent; it cannot name several files or a folder.") }
            if let problem = ResourceName.problem(with: fileName) { throw ValidationError(MultipeerError.invalidResourceName(fileName, problem).message) }
        }
    }

    /// Whether `items` go as a set (several, or a folder) rather than as one file, as before sets.
    func isSet(_ items: [String]) -> Bool {
        var isDirectory: ObjCBool = false
        return items.count > 1 || (FileManager.default.fileExists(atPath: items[0], isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    static func parseTarget(_ text: String) throws -> DropTarget {
        if text.lowercased().hasPrefix(JoinCode.prefix) { return .code(try JoinCode(parsing: text)) }
        return .address(try Endpoint(parsing: text))
    }

    func run() async throws {
        LoggingSystem.bootstrapTerminal(level: output.logLevel, destination: LogDestination())
        try await CommandRunner.run {
            let me = try LocalPlayer(name: name, role: .guest)
            let session = Session(localPeer: me.peer, transport: TCPTransport(credentials: try TLSCredentials(key: me.key, endorsement: me.endorsement)))
            let terminal = json ? nil : DropTerminalOutput()
            let out: any DropOutput = terminal ?? DropJSONOutput()
            if let notice = me.notice { out.line(notice) }
            let sender = DropSender(
                session: session, discovery: try dns.discovery(), output: out, timeout: .seconds(timeout),
                pick: {
                    terminal?.prompt("> ")
                    defer { terminal?.promptAnswered() }
                    return await onOwnThread { readLine() }
                })
            // Before a transfer starts (the list, a question) there is nothing to undo: Ctrl-C ends it.
            let interrupt = InterruptSource { if !sender.cancel() { Foundation.exit(AppFailure.Code.cancelled.exitCode) } }
            let (items, target) = try parsed()
            let receiver = target ?? to.map { .named($0) } ?? .pick
            let code = isSet(items)
                ? await sender.run(set: items.map { URL(fileURLWithPath: $0) }, to: receiver)
                : await sender.run(file: URL(fileURLWithPath: items[0]), named: fileName, to: receiver)
            interrupt.cancel()
            await session.disconnect()
            withExtendedLifetime(me) {}
            if code != 0 { throw ExitCode(code) }
        }
    }
}

/// `guessnum receive`: take files that others send with `guessnum send`.
struct ReceiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receive",
        abstract: "Receive files sent with `guessnum send`, into a directory (default: the current one)."
    )

    @Argument(help: "The directory files are saved in (default: the current directory).")
    var directory: String?

    @Flag(help: "Save every file offered without asking (for scripts).")
    var yes = false

    @Flag(help: "Stop after the first file, saved or not; exit 1 when it was not saved (for scripts).")
    var once = false

    @Option(help: "Your name as senders see it (default: your login name).")
    var name: String?

    @Option(parsing: .unconditional, help: "The TCP port to listen on (default: any free port).")
    var port: Int?

    @Flag(help: "Write one JSON object a line for scripts: each sentence a message event, the transfer's progress a progress event at each whole percent.")
    var json = false

    @OptionGroup var dns: SiteDNSOptions

    @OptionGroup var output: LogOptions

    func validate() throws {
        if let port, !(0...65535).contains(port) { throw ValidationError("--port must be between 0 and 65535.") }
    }

    func run() async throws {
        LoggingSystem.bootstrapTerminal(level: output.logLevel, destination: LogDestination())
        try await CommandRunner.run {
            let folder = URL(fileURLWithPath: directory ?? FileManager.default.currentDirectoryPath, isDirectory: true).standardizedFileURL
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw AppFailure("\(folder.path) is not a directory; make it first, or name another.", .usage)
            }
            let me = try LocalPlayer(name: name, role: .drop)
            let session = Session(
                localPeer: me.peer, transport: TCPTransport(credentials: try TLSCredentials(key: me.key, endorsement: me.endorsement)), configuration: .bulkTransfer)
            let out: any DropOutput = json ? DropJSONOutput() : DropTerminalOutput()
            if let notice = me.notice { out.line(notice) }
            let box = DropBox(
                session: session, discovery: try dns.discovery(), directory: folder, acceptAll: yes, once: once, output: out,
                command: ProgramCommand.current(), store: ResumeStore.standard(application: "guessnum"),
                ask: { question in
                    out.line(question)
                    let answer = await onOwnThread { readLine() }
                    return ["y", "yes"].contains(answer?.trimmingCharacters(in: .whitespaces).lowercased() ?? "")
                })
            let interrupt = InterruptSource { box.stop() }
            let code = try await box.run(port: port)
            interrupt.cancel()
            withExtendedLifetime(me) {}
            if code != 0 { throw ExitCode(code) }
        }
    }
}

/// Ctrl-C (SIGINT) and SIGTERM as a call, not the end of the program, while it lives.
final class InterruptSource {
    private let sources: [any DispatchSourceSignal]

    init(_ handler: @escaping @Sendable () -> Void) {
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}
