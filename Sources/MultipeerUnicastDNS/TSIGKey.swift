import Foundation

/// A TSIG key (RFC 8945), with which a host signs the updates that publish its game: the key's
/// name, its algorithm and its secret, as a site's administrator hands it out.
public struct TSIGKey: Sendable, Hashable {
    /// The HMAC a key uses.
    public enum Algorithm: String, Sendable, Hashable, CaseIterable {
        case hmacSHA256 = "hmac-sha256"
        case hmacSHA384 = "hmac-sha384"
        case hmacSHA512 = "hmac-sha512"
        case hmacSHA224 = "hmac-sha224"
        case hmacSHA1 = "hmac-sha1"

        /// Its name on the wire, as ldns takes it.
        var wireName: String { rawValue + "." }
    }

    /// The key's name (`guessnum-hosts.`), as the server knows it.
    public var name: DNSName
    /// Its algorithm.
    public var algorithm: Algorithm
    /// Its secret, base64 as the administrator gave it.
    public var secret: String

    /// A key; the secret must be base64.
    /// - Throws: ``DNSError/Code/invalidInput`` when it is not.
    public init(name: DNSName, algorithm: Algorithm = .hmacSHA256, secret: String) throws(DNSError) {
        guard !name.labels.isEmpty else { throw DNSError(.invalidInput, "A TSIG key needs a name.") }
        guard let bytes = Data(base64Encoded: secret), !bytes.isEmpty else {
            throw DNSError(.invalidInput, "The TSIG key \(name)'s secret is not base64: copy it from the key file as it is.")
        }
        self.name = name
        self.algorithm = algorithm
        self.secret = secret
    }

    /// A key as administrators write it: `[ALGORITHM:]NAME:SECRET` (the form `knsupdate -y` and
    /// `nsupdate -y` take), or a BIND `key "NAME" { algorithm ALGORITHM; secret "SECRET"; };`
    /// clause (what `tsig-keygen` prints, and Knot's `keymgr -t` prints the same three facts).
    /// - Throws: ``DNSError/Code/invalidInput`` with a sentence saying which form is expected.
    public init(parsing text: String) throws(DNSError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("key") || trimmed.contains("secret") {
            try self.init(clause: trimmed)
            return
        }
        let parts = trimmed.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        switch parts.count {
        case 2: try self.init(name: DNSName(parts[0]), secret: parts[1])
        case 3:
            guard let algorithm = Algorithm(rawValue: parts[0].lowercased()) else { throw Self.unknownAlgorithm(parts[0]) }
            try self.init(name: DNSName(parts[1]), algorithm: algorithm, secret: parts[2])
        default:
            throw DNSError(.invalidInput, "A TSIG key is written hmac-sha256:NAME:SECRET, or as the key file the DNS server's administrator gave you.")
        }
    }

    /// Reads a BIND `key` clause (`key "NAME" { algorithm A; secret "S"; };`), or Knot's
    /// `id: NAME` / `algorithm: A` / `secret: S` lines.
    private init(clause: String) throws(DNSError) {
        func value(after keywords: [String]) -> String? {
            for keyword in keywords {
                guard let range = clause.range(of: keyword) else { continue }
                let rest = clause[range.upperBound...].drop { $0 == " " || $0 == ":" || $0 == "\t" || $0 == "\"" }
                let value = rest.prefix { !($0 == "\"" || $0 == ";" || $0 == "{" || $0.isWhitespace) }
                if !value.isEmpty { return String(value) }
            }
            return nil
        }
        guard let name = value(after: ["key \"", "key ", "id:"]), let secret = value(after: ["secret"]) else {
            throw DNSError(.invalidInput, "The key file names no key or no secret: use the file the DNS server's administrator gave you (tsig-keygen's or keymgr's output).")
        }
        let algorithmName = value(after: ["algorithm"]) ?? Algorithm.hmacSHA256.rawValue
        guard let algorithm = Algorithm(rawValue: algorithmName.lowercased()) else { throw Self.unknownAlgorithm(algorithmName) }
        try self.init(name: DNSName(name), algorithm: algorithm, secret: secret)
    }

    private static func unknownAlgorithm(_ name: String) -> DNSError {
        DNSError(.invalidInput, "The TSIG algorithm \(name) is not one this program signs with: use \(Algorithm.allCases.map(\.rawValue).joined(separator: ", ")).")
    }
}
