import Foundation
import Multipeer
import MultipeerTestSupport
import MultipeerUnicastDNS

/// A real Knot DNS server (Debian's `knot`) for one test, on loopback: the site's DNS server,
/// authoritative for `games.test.` and taking updates signed with one TSIG key. It answers only
/// on 127.0.0.1 and multicasts nothing; it is stopped (by its PID) when the test lets go of it.
final class KnotServer: @unchecked Sendable {
    /// The zone it serves.
    static let zone = DNSName("games.test.")
    /// Where it listens.
    let endpoint: Endpoint
    /// The key it takes updates signed with.
    let key: TSIGKey
    private let process: ChildProcess
    let directory: URL

    /// Starts a server; throws when none comes up.
    init() async throws {
        directory = Scratch.path("knot")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        key = try TSIGKey(name: DNSName("guessnum-hosts."), secret: Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString())
        try Self.zoneFile.write(to: directory.appendingPathComponent("games.test.zone"), atomically: true, encoding: .utf8)
        for _ in 0..<5 {
            let port = Int.random(in: 20_000...60_000)
            let configuration = directory.appendingPathComponent("knot.conf")
            try Self.configuration(directory: directory, port: port, key: key).write(to: configuration, atomically: true, encoding: .utf8)
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
        throw TestFailure("knotd did not start in \(directory.path)")
    }

    /// Stops the server.
    func stop() async {
        process.signal(SIGTERM)
        _ = await process.exitStatus()
    }

    deinit { process.signal(SIGKILL) }

    /// What the server logged.
    var log: String { process.text }

    static let zoneFile = """
        $ORIGIN games.test.
        $TTL 60
        @ SOA ns.games.test. admin.games.test. 1 60 60 3600 60
        @ NS ns
        ns A 127.0.0.1
        b._dns-sd._udp PTR @

        """

    static func configuration(directory: URL, port: Int, key: TSIGKey) -> String {
        """
        server:
            rundir: "\(directory.path)"
            listen: 127.0.0.1@\(port)
        log:
          - target: stdout
            any: info
        database:
            storage: "\(directory.path)"
        key:
          - id: \(key.name.description)
            algorithm: \(key.algorithm.rawValue)
            secret: \(key.secret)
        acl:
          - id: hosts-update
            key: \(key.name.description)
            action: update
        template:
          - id: default
            storage: "\(directory.path)"
            file: "%s.zone"
        zone:
          - domain: games.test.
            acl: hosts-update

        """
    }
}
