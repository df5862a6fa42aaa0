import Crypto
import Foundation

/// A host's addresses, port and identity in one token a person can paste where discovery cannot
/// reach (multicast filtered, client isolation, another subnet): `gn1-` and lowercase base32.
///
/// It pins the host's identity as a verified discovery record does: a peer that answers at one
/// of its addresses must prove the key whose fingerprint gives ``identity``, or it is refused.
/// Two bytes of SHA-256 over the rest make a mistyped code a sentence, not a wrong connection.
///
/// ```swift
/// let code = JoinCode(identity: host.identity, port: 5000, addresses: ["192.168.1.20"])
/// print(code.text)                       // gn1-…
/// let parsed = try JoinCode(parsing: code.text)
/// ```
public struct JoinCode: Sendable, Hashable {
    /// The prefix of every code of this format.
    public static let prefix = "gn1-"
    /// The most addresses a code carries.
    public static let maximumAddresses = 4

    /// The host's identity (the first half of its key's fingerprint).
    public let identity: UUID
    /// The port it listens on.
    public let port: Int
    /// Its IPv4 and IPv6 addresses, in the order to try them.
    public let addresses: [String]

    /// A code for the host `identity` at `addresses` (the first ``maximumAddresses`` of them that
    /// are numeric IPv4 or IPv6 addresses without a scope) and `port`. An IPv6 link-local address
    /// goes without its scope: the player's side supplies its own (see ``endpoints(near:)``).
    public init(identity: UUID, port: Int, addresses: [String]) {
        self.identity = identity
        self.port = port
        self.addresses = Array(addresses.filter { IPAddressBytes($0).map { $0.scope == nil } ?? false }.prefix(Self.maximumAddresses))
    }

    /// Reads a code, ignoring case and spaces around it.
    /// - Throws: ``MultipeerError/Code/invalidEndpoint`` with a sentence when it is not one, or
    ///   was mistyped.
    public init(parsing text: String) throws(MultipeerError) {
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard token.hasPrefix(Self.prefix) else {
            throw MultipeerError(.invalidEndpoint, "“\(text)” is not a join code (a join code starts with \(Self.prefix)).")
        }
        guard let bytes = Base32.decode(String(token.dropFirst(Self.prefix.count))), bytes.count >= 2 + 16 + 2 else {
            throw Self.damaged
        }
        let body = Array(bytes.dropFirst(2))
        guard Array(bytes.prefix(2)) == Self.check(body) else { throw Self.damaged }
        let identity = UUID(uuid: (body[0], body[1], body[2], body[3], body[4], body[5], body[6], body[7],
                                   body[8], body[9], body[10], body[11], body[12], body[13], body[14], body[15]))
        let port = Int(body[16]) << 8 | Int(body[17])
        var addresses: [String] = []
        var rest = body.dropFirst(18)
        while let family = rest.first {
            let length = family == 4 ? 4 : family == 6 ? 16 : -1
            guard length > 0, rest.count >= 1 + length else { throw Self.damaged }
            let raw = Array(rest.dropFirst().prefix(length))
            guard let address = IPAddressBytes(bytes: raw) else { throw Self.damaged }
            addresses.append(address.text)
            rest = rest.dropFirst(1 + length)
        }
        guard (1...65535).contains(port), !addresses.isEmpty else { throw Self.damaged }
        self.identity = identity
        self.port = port
        self.addresses = addresses
    }

    /// The code: ``prefix`` and lowercase base32, one token with no spaces.
    public var text: String {
        var body = Array(withUnsafeBytes(of: identity.uuid) { Array($0) })
        body += [UInt8(port >> 8 & 0xFF), UInt8(port & 0xFF)]
        for address in addresses {
            guard let raw = IPAddressBytes(address) else { continue }
            body.append(raw.isIPv6 ? 6 : 4)
            body += raw.bytes
        }
        return Self.prefix + Base32.encode(Self.check(body) + body)
    }

    /// Where to connect, in the code's order. An IPv6 link-local address (`fe80::…`, which a
    /// host puts in its code when its network has no other addresses) is reachable only through
    /// an interface of the player's machine: it becomes one endpoint per interface of
    /// `interfaces` that has a link-local address of its own (`fe80::…%wlan0`).
    public func endpoints(near interfaces: [InterfaceAddress]) -> [Endpoint] {
        let links = Set(interfaces.filter { $0.kind == .lan && $0.isIPv6 && $0.isLinkLocal }.map(\.interface)).sorted()
        return addresses.flatMap { address -> [Endpoint] in
            guard let parsed = IPAddressBytes(address), parsed.isIPv6, parsed.isLinkLocal else {
                return [try? Endpoint(host: address, port: port)].compactMap { $0 }
            }
            return links.compactMap { try? Endpoint(host: "\(address)%\($0)", port: port) }
        }
    }

    private static var damaged: MultipeerError {
        MultipeerError(.invalidEndpoint, "This join code is damaged: a character is wrong or missing. Copy it again from the host's screen.")
    }

    private static func check(_ body: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(data: body).prefix(2))
    }

}

/// RFC 4648 base32 in lowercase, without padding.
enum Base32 {
    private static let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        var buffer = 0
        var bits = 0
        for byte in bytes {
            buffer = buffer << 8 | Int(byte)
            bits += 8
            while bits >= 5 {
                output.append(alphabet[(buffer >> (bits - 5)) & 31])
                bits -= 5
            }
            buffer &= (1 << bits) - 1
        }
        if bits > 0 { output.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return String(decoding: output, as: UTF8.self)
    }

    static func decode(_ text: String) -> [UInt8]? {
        var output: [UInt8] = []
        var buffer = 0
        var bits = 0
        for character in text.utf8 {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            buffer = buffer << 5 | value
            bits += 5
            if bits >= 8 {
                output.append(UInt8((buffer >> (bits - 8)) & 0xFF))
                bits -= 8
            }
            buffer &= (1 << bits) - 1
        }
        return output
    }
}
