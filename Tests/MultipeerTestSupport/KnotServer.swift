import Foundation
import Multipeer

/// A real Knot DNS server (Debian's `knot`) for one test, on loopback: the site's DNS server,
/// authoritative for `games.test.` and taking updates signed with one TSIG key. It answers only
/// on 127.0.0.1 and multicasts nothing; it is stopped (by its PID) when the test lets go of it.
public final class KnotServer: @unchecked Sendable {
    /// Where it listens.
    public let endpoint: Endpoint
    /// The key it takes updates signed with, as `--dns-key` reads it.
    public let keyText: String
    private let process: ChildProcess

    /// Starts a server; throws when none comes up.
    public init() async throws {
        let files = KnotConfiguration()
        keyText = files.keyText
        for _ in 0..<5 {
            let port = Int.random(in: 20_000...60_000)
            let configuration = try files.write(listeningOn: "127.0.0.1@\(port)")
            let process = try ChildProcess(URL(fileURLWithPath: "/usr/sbin/knotd"), ["-c", configuration.path])
            guard let line = await process.line(containing: "server started", within: .seconds(10)), !line.isEmpty else {
                process.signal(SIGKILL)
                _ = await process.exitStatus()
                continue  // the port was taken: another one
            }
            self.process = process
            endpoint = try Endpoint(host: "127.0.0.1", port: port)
            return
        }
        throw TestFailure("knotd did not start in \(files.directory.path)")
    }

    /// What the server logged so far (every update it processed is a line).
    public var log: String { process.text }

    /// Stops the server.
    public func stop() async {
        process.signal(SIGTERM)
        _ = await process.exitStatus()
    }

    deinit { process.signal(SIGKILL) }
}
