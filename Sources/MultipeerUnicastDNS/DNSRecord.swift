import CLDNS
import Foundation

/// One DNS resource record of the kinds DNS-SD uses: a pointer to a service instance, its
/// server and port, its key=value strings, and a host's addresses.
public struct DNSRecord: Sendable, Hashable {
    /// The record's type and data.
    public enum Data: Sendable, Hashable {
        /// A pointer to `name` (a service type's instances, or a browsing domain).
        case ptr(DNSName)
        /// Where an instance is served.
        case srv(priority: UInt16, weight: UInt16, port: UInt16, target: DNSName)
        /// Character strings (DNS-SD's `key=value` entries), each at most 255 bytes.
        case txt([[UInt8]])
        /// An IPv4 address, dotted (`10.77.1.10`).
        case a(String)
        /// An IPv6 address (`fd00::10`).
        case aaaa(String)

        /// Its type.
        public var type: DNSRecordType {
            switch self {
            case .ptr: .ptr
            case .srv: .srv
            case .txt: .txt
            case .a: .a
            case .aaaa: .aaaa
            }
        }
    }

    /// The owner name.
    public var name: DNSName
    /// How long resolvers may keep it, in seconds.
    public var ttl: UInt32
    /// The type and data.
    public var data: Data

    /// A record of `name` with `data`, kept `ttl` seconds.
    public init(name: DNSName, ttl: UInt32, data: Data) {
        self.name = name
        self.ttl = ttl
        self.data = data
    }

    /// The record in zone-file form, as ldns reads it.
    var presentation: String {
        let rdata: String
        switch data {
        case .ptr(let target): rdata = target.presentation
        case .srv(let priority, let weight, let port, let target): rdata = "\(priority) \(weight) \(port) \(target.presentation)"
        case .txt(let strings): rdata = (strings.isEmpty ? [[]] : strings).map(Self.quoted).joined(separator: " ")
        case .a(let address), .aaaa(let address): rdata = address
        }
        return "\(name.presentation) \(ttl) IN \(data.type.name) \(rdata)"
    }

    /// `bytes` as a quoted character string: `"`, `\` and bytes outside printable ASCII escaped.
    static func quoted(_ bytes: [UInt8]) -> String {
        var text = "\""
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): text += "\\" + String(UnicodeScalar(byte))
            case 0x20...0x7E: text.unicodeScalars.append(UnicodeScalar(byte))
            default: text += "\\" + (byte < 10 ? "00" : byte < 100 ? "0" : "") + String(byte)
            }
        }
        return text + "\""
    }
}

/// The record types DNS-SD uses.
public enum DNSRecordType: Sendable, Hashable, CaseIterable {
    case ptr, srv, txt, a, aaaa

    var ldns: ldns_rr_type {
        switch self {
        case .ptr: LDNS_RR_TYPE_PTR
        case .srv: LDNS_RR_TYPE_SRV
        case .txt: LDNS_RR_TYPE_TXT
        case .a: LDNS_RR_TYPE_A
        case .aaaa: LDNS_RR_TYPE_AAAA
        }
    }

    var name: String {
        switch self {
        case .ptr: "PTR"
        case .srv: "SRV"
        case .txt: "TXT"
        case .a: "A"
        case .aaaa: "AAAA"
        }
    }
}
