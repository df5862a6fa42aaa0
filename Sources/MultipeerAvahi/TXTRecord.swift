import CAvahi
import Foundation
import Multipeer

/// What a peer's DNS-SD TXT record carries: the application's ``DiscoveryInfo`` plus two
/// entries of the library's own — `pv`, the wire protocol version, and `id`, the peer identity.
enum TXTRecord {
    static let versionKey = "pv"
    static let identityKey = "id"
    static let reservedKeys: Set<String> = [versionKey, identityKey]

    /// The `key=value` strings to publish for `peer` with `info`.
    static func entries(for peer: PeerID, info: DiscoveryInfo) throws(MultipeerError) -> [String] {
        if let key = info.entries.keys.first(where: { reservedKeys.contains($0.lowercased()) }) {
            throw .reservedDiscoveryKey(key)
        }
        let own = ["\(versionKey)=\(WireProtocol.version)", "\(identityKey)=\(peer.identity.uuidString.lowercased())"]
        return own + info.entries.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    }

    /// A C string list of `entries`; the caller frees it with `avahi_string_list_free`.
    static func makeList(_ entries: [String]) -> UnsafeMutablePointer<AvahiStringList>? {
        var list: UnsafeMutablePointer<AvahiStringList>?
        for entry in entries.reversed() {
            list = entry.withCString { avahi_string_list_add(list, $0) }
        }
        return list
    }

    /// The entries of a received list, as `key → value` (a key without `=` has an empty value).
    static func read(_ list: UnsafeMutablePointer<AvahiStringList>?) -> [String: String] {
        var result: [String: String] = [:]
        var node = list
        while let current = node {
            let size = Int(current.pointee.size)
            let bytes = withUnsafePointer(to: &current.pointee.text) { pointer in
                pointer.withMemoryRebound(to: UInt8.self, capacity: size) { Array(UnsafeBufferPointer(start: $0, count: size)) }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            } else if !text.isEmpty {
                result[text] = ""
            }
            node = current.pointee.next
        }
        return result
    }

    /// The peer and its info from a received record, or nil when it is not a compatible peer
    /// (no identity, or another protocol version).
    static func peer(named name: String, from entries: [String: String]) -> (PeerID, DiscoveryInfo)? {
        guard entries[versionKey] == String(WireProtocol.version),
              let identityText = entries[identityKey], let identity = UUID(uuidString: identityText),
              let peer = try? PeerID(displayName: name, identity: identity)
        else { return nil }
        var info = entries
        for key in reservedKeys { info[key] = nil }
        return (peer, (try? DiscoveryInfo(info)) ?? DiscoveryInfo())
    }
}
