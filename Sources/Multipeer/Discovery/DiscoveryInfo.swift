/// Small key–value facts advertised with a peer (a DNS-SD TXT record).
///
/// Each `key=value` may be at most 255 bytes and the whole record at most 400 bytes (each entry
/// costs its bytes plus one length byte), so that it fits one small DNS message. Keys are
/// 1 to 9 printable ASCII characters without `=`, unique regardless of case.
public struct DiscoveryInfo: Hashable, Sendable, CustomStringConvertible {
    /// The most bytes one `key=value` may have.
    public static let maximumEntryBytes = 255
    /// The most bytes the whole record may have.
    public static let maximumRecordBytes = 400

    /// The entries, by key.
    public let entries: [String: String]

    /// An empty record.
    public init() {
        entries = [:]
    }

    /// Creates a record, validating every entry and the total size.
    /// - Throws: ``MultipeerError/Code/invalidDiscoveryInfo``.
    public init(_ entries: [String: String]) throws(MultipeerError) {
        var seenKeys = Set<String>()
        for (key, value) in entries {
            if key.isEmpty || key.utf8.count > 9 { throw .invalidDiscoveryInfo("key “\(key)” is not 1 to 9 characters long") }
            if !key.utf8.allSatisfy({ (0x20...0x7E).contains($0) && $0 != UInt8(ascii: "=") }) {
                throw .invalidDiscoveryInfo("key “\(key)” must be printable ASCII without “=”")
            }
            if !seenKeys.insert(key.lowercased()).inserted { throw .invalidDiscoveryInfo("has the key “\(key)” twice (keys ignore case)") }
            let entryBytes = key.utf8.count + 1 + value.utf8.count
            if entryBytes > Self.maximumEntryBytes { throw .invalidDiscoveryInfo("entry “\(key)” is \(entryBytes) bytes") }
        }
        self.entries = entries
        let size = encodedSize
        if size > Self.maximumRecordBytes { throw .invalidDiscoveryInfo("is \(size) bytes in all") }
    }

    /// The value for `key`, if any.
    public subscript(key: String) -> String? { entries[key] }

    /// The record's size on the wire: every `key=value` plus one length byte each.
    public var encodedSize: Int {
        entries.reduce(0) { $0 + 1 + $1.key.utf8.count + 1 + $1.value.utf8.count }
    }

    /// A copy with `value` set for `key` (or the key removed when `value` is nil), validated.
    public func setting(_ key: String, to value: String?) throws(MultipeerError) -> DiscoveryInfo {
        var entries = entries
        entries[key] = value
        return try DiscoveryInfo(entries)
    }

    public var description: String {
        entries.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }
}
