import Foundation
import Multipeer
import MultipeerPOSIX

extension DropSender {
    /// `guessnum send` as a person or a script runs it: `arguments`' files to their receiver,
    /// else to the one called `name`, else to the one the person picks from the list; lines for
    /// a person, or JSON lines (`json`). Before a transfer starts Ctrl-C ends the program; then
    /// it cancels the transfer. Disconnects `session` at the end; returns the exit code.
    /// - Parameter notice: a sentence about the player's key to print first, if any.
    public static func send(
        _ arguments: SendArguments, to name: String?, as fileName: String?, session: Session, discovery: any DiscoveryBackend,
        json: Bool, timeout: Duration, notice: String?
    ) async -> Int32 {
        let terminal = json ? nil : DropTerminalOutput()
        let out: any DropOutput = terminal ?? DropJSONOutput()
        if let notice { out.line(notice) }
        let sender = DropSender(
            session: session, discovery: discovery, output: out, timeout: timeout,
            pick: {
                terminal?.prompt("> ")
                defer { terminal?.promptAnswered() }
                return await onOwnThread { readLine() }
            })
        // Before a transfer starts (the list, a question) there is nothing to undo: Ctrl-C ends it.
        let interrupt = InterruptSource { if !sender.cancel() { exit(AppFailure.Code.cancelled.exitCode) } }
        let receiver = arguments.target ?? name.map { .named($0) } ?? .pick
        let code = arguments.isSet
            ? await sender.run(set: arguments.items.map { URL(fileURLWithPath: $0) }, to: receiver)
            : await sender.run(file: URL(fileURLWithPath: arguments.items[0]), named: fileName, to: receiver)
        interrupt.cancel()
        await session.disconnect()
        return code
    }
}
