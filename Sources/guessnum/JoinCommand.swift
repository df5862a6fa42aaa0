import ArgumentParser
import Foundation
import Multipeer
import MultipeerNIO

/// `guessnum join ADDR:PORT`: join a host directly by its address.
struct JoinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join",
        abstract: "Join a host by its address, as printed by `guessnum host`."
    )

    @Option(help: "Your name as others see it (default: your login name).")
    var name: String?

    @Argument(help: "The host's address, for example 192.168.1.20:7777.")
    var address: String

    @Option(help: "Seconds to wait for the host to answer.")
    var timeout: Int = 30

    func run() async throws {
        Signals.install()
        try await CommandRunner.run {
            let endpoint = try Endpoint(parsing: address)
            let session = try Session(localPeer: PeerIdentity.local(name: name, role: .guest), transport: TCPTransport())
            let chat = ChatRelay(session: session)
            Output.line("Connecting to \(endpoint)…")
            switch try await session.invite(endpoint, timeout: .seconds(timeout)) {
            case .connected(let host):
                Output.line("Joined \(host.displayName). Type a line to chat; end input to leave.")
                await chat.run(until: .endOfInputOrHostGone, leaving: nil)
            case .declined(let reason):
                await session.disconnect()
                throw CLIError("The host turned you away\(reason.map { ": \($0)" } ?? "").", exitCode: 3)
            case .timedOut:
                await session.disconnect()
                throw CLIError("The host did not answer within \(timeout) s.", exitCode: 3)
            }
        }
    }
}
