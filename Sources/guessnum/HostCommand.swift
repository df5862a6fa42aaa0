import ArgumentParser
import Foundation
import Multipeer
import MultipeerNIO

/// `guessnum host`: open a session that guests join by address.
struct HostCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "host",
        abstract: "Host a session that guests join with `guessnum join ADDR:PORT`."
    )

    @Option(help: "Your name as others see it (default: your login name).")
    var name: String?

    @Option(help: "The TCP port to listen on (default: any free port).")
    var port: Int = 0

    func run() async throws {
        Signals.install()
        try await CommandRunner.run {
            let session = try Session(localPeer: PeerIdentity.local(name: name, role: .host), transport: TCPTransport())
            let chat = ChatRelay(session: session)
            let boundPort = try await session.startListening(port: port, policy: .acceptAll)
            Output.line("Hosting as \(session.localPeer.displayName) on port \(boundPort). Guests join with: guessnum join \(LocalAddress.bestGuess()):\(boundPort)")
            await chat.run(until: .signal, leaving: "the host closed the session")
        }
    }
}
