import ArgumentParser
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

    func validate() throws {
        guard timeout >= 1 else { throw ValidationError("--timeout must be at least 1 second.") }
        do { _ = try SendArguments(arguments, named: to, fileName: fileName) } catch { throw ValidationError(error.message) }
    }

    func run() async throws {
        LoggingSystem.bootstrapTerminal(level: output.logLevel, destination: LogDestination())
        try await CommandRunner.run {
            let me = try LocalPlayer(name: name, role: .guest)
            let code = await DropSender.send(
                try SendArguments(arguments, named: to, fileName: fileName), to: to, as: fileName, session: try me.session(),
                discovery: try dns.discovery(), json: json, timeout: .seconds(timeout), notice: me.notice)
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
        // A set's files being put in place hold a few descriptors each (up to 112 files a set,
        // ~500 descriptors), and several senders' sets may run at once: the usual soft limit of
        // 1,024 is too few.
        FileLimit.raiseToHardLimit()
        try await CommandRunner.run {
            let me = try LocalPlayer(name: name, role: .drop)
            let code = try await DropBox.receive(
                into: directory, session: try me.session(.bulkTransfer), discovery: try dns.discovery(), acceptAll: yes, once: once, json: json,
                port: port, notice: me.notice)
            withExtendedLifetime(me) {}
            if code != 0 { throw ExitCode(code) }
        }
    }
}
