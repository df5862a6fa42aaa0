/// A domain name as its labels, each as the text it carries (a DNS-SD instance name such as
/// `alice's game` is one label, spaces, dots and all).
public struct DNSName: Sendable, Hashable, CustomStringConvertible {
    /// The labels, most specific first, without the root.
    public var labels: [String]

    /// The name of `labels`.
    public init(labels: [String]) {
        self.labels = labels
    }

    /// The name written in presentation form (`_guessnum._tcp.games.example.`), a final dot or not;
    /// escapes are not read: for names typed by an administrator, not for instance names.
    public init(_ dotted: String) {
        labels = dotted.split(separator: ".", omittingEmptySubsequences: true).map(String.init)
    }

    /// Names compare as DNS compares them (RFC 4343): ASCII letters without regard to case —
    /// a server may keep `Zoë's game` as `zoë's game` (Knot DNS does).
    public static func == (lhs: DNSName, rhs: DNSName) -> Bool {
        lhs.labels.count == rhs.labels.count && zip(lhs.labels, rhs.labels).allSatisfy { Self.folded($0) == Self.folded($1) }
    }

    public func hash(into hasher: inout Hasher) {
        for label in labels { hasher.combine(Self.folded(label)) }
    }

    /// `label` with its ASCII letters in lower case, other bytes as they are.
    static func folded(_ label: String) -> [UInt8] {
        label.utf8.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 + 32 : $0 }
    }

    /// `label`, then this name's labels.
    public func prepending(_ label: String) -> DNSName {
        DNSName(labels: [label] + labels)
    }

    /// Whether this name is `other` or inside it.
    public func isWithin(_ other: DNSName) -> Bool {
        labels.count >= other.labels.count && zip(labels.suffix(other.labels.count), other.labels).allSatisfy { Self.folded($0) == Self.folded($1) }
    }

    /// The name in presentation form, fully qualified: every byte a zone file cannot carry as
    /// it is escaped (`\.`, `\ `, `\226`…), as ldns reads it.
    public var presentation: String {
        labels.map(Self.escaped).joined(separator: ".") + "."
    }

    public var description: String { labels.joined(separator: ".") + "." }

    /// The name as people read it in a sentence: its labels joined by dots, without the root's
    /// final dot (`games.site.test`), so that a full stop after it is not a second dot.
    public var readable: String { labels.joined(separator: ".") }

    /// `label` in presentation form.
    static func escaped(_ label: String) -> String {
        var text = ""
        for byte in label.utf8 {
            switch byte {
            case UInt8(ascii: "."), UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: ";"), UInt8(ascii: "("), UInt8(ascii: ")"),
                UInt8(ascii: "@"), UInt8(ascii: "$"):
                text += "\\" + String(UnicodeScalar(byte))
            case 0x21...0x7E:
                text.unicodeScalars.append(UnicodeScalar(byte))
            default:
                text += "\\" + String(format3: byte)
            }
        }
        return text
    }
}

extension String {
    /// `byte` as three decimal digits, as a zone file escapes it (`\032` for a space).
    fileprivate init(format3 byte: UInt8) {
        let digits = String(byte)
        self = String(repeating: "0", count: 3 - digits.count) + digits
    }
}
