import Foundation

/// A Knot DNS server's files for a test: authoritative for `games.test.`, taking updates signed
/// with one TSIG key (hmac-sha256), listening where the test says, everything in one folder.
public struct KnotConfiguration: Sendable {
    /// The zone it serves.
    public static let zone = "games.test."
    /// The name of the key it takes updates signed with.
    public static let keyName = "guessnum-hosts."

    /// The folder of its configuration, zone file, database and control socket.
    public let directory: URL
    /// Its key's secret, base64.
    public let secret: String

    /// Files in a new scratch folder, with a new secret.
    public init() {
        directory = Scratch.path("knot")
        secret = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
    }

    /// The key as `nsupdate -y` and `guessnum --dns-key` read it.
    public var keyText: String { "hmac-sha256:\(Self.keyName):\(secret)" }

    /// Writes the zone — its SOA naming the server at `address`, and `b` and `dr._dns-sd._udp`
    /// naming the zone itself for browsing and publishing (RFC 6763 §11) — and a configuration
    /// that listens on `address` (`127.0.0.1@5300`); returns the configuration file, for `knotd -c`.
    public func write(listeningOn address: String) throws -> URL {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try """
            $ORIGIN games.test.
            $TTL 60
            @ SOA ns.games.test. admin.games.test. 1 60 60 3600 60
            @ NS ns
            ns A \(address.prefix { $0 != "@" })
            b._dns-sd._udp PTR @
            dr._dns-sd._udp PTR @

            """.write(to: directory.appendingPathComponent("games.test.zone"), atomically: true, encoding: .utf8)
        let configuration = directory.appendingPathComponent("knot.conf")
        try """
            server:
                rundir: "\(directory.path)"
                listen: \(address)
            log:
              - target: stdout
                any: info
            database:
                storage: "\(directory.path)"
            key:
              - id: \(Self.keyName)
                algorithm: hmac-sha256
                secret: \(secret)
            acl:
              - id: hosts-update
                key: \(Self.keyName)
                action: update
            template:
              - id: default
                storage: "\(directory.path)"
                file: "%s.zone"
            zone:
              - domain: \(Self.zone)
                acl: hosts-update

            """.write(to: configuration, atomically: true, encoding: .utf8)
        return configuration
    }
}
