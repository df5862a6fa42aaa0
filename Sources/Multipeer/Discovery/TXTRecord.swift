import Foundation

/// What a peer's DNS-SD TXT record carries: the application's ``DiscoveryInfo`` plus two
/// entries of the library's own — `pv`, the version of this record's layout, and `id`, the
/// peer identity.
///
/// `pv` is `1` whatever the wire protocol's version: a peer of another release is still listed,
/// and joining it says that both programs need the same release (a DECLINE of cause 1), which
/// tells its user more than a game that is not there.
package enum TXTRecord {
    package static let versionKey = "pv"
    /// The version of the record's layout this library writes and reads.
    package static let version = 1
    package static let identityKey = "id"
    /// A record in a shared unicast zone says until when its host vouches for it (Unix seconds),
    /// and its host moves it on as it refreshes the record (`MultipeerUnicastDNS`).
    package static let leaseKey = "lease"
    /// A record in a unicast zone carries the host's name as it wrote it: a server may keep the
    /// instance's name in lower case (Knot DNS does), and a list shows `alice` for `Alice`.
    package static let displayNameKey = "dn"
    package static let reservedKeys: Set<String> = [versionKey, identityKey, leaseKey, displayNameKey]

    /// The `key=value` strings to publish for `peer` with `info`.
    package static func entries(for peer: PeerID, info: DiscoveryInfo) throws(MultipeerError) -> [String] {
        if let key = info.entries.keys.first(where: { reservedKeys.contains($0.lowercased()) }) {
            throw .reservedDiscoveryKey(key)
        }
        let own = ["\(versionKey)=\(version)", "\(identityKey)=\(peer.identity.uuidString.lowercased())"]
        return own + info.entries.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    }

    /// The `key=value` strings of a TXT record, in record order, as `key → value`, read as
    /// RFC 6763 §6.4 says: a key without `=` is present with an empty value, an entry with an
    /// empty key is ignored, and of several entries whose keys differ only in case the first wins.
    package static func parse(_ texts: [String]) -> [String: String] {
        var result: [String: String] = [:]
        var seen = Set<String>()
        for text in texts {
            let key: Substring
            let value: Substring
            if let equals = text.firstIndex(of: "=") {
                key = text[..<equals]
                value = text[text.index(after: equals)...]
            } else {
                key = text[...]
                value = ""
            }
            guard !key.isEmpty, seen.insert(key.lowercased()).inserted else { continue }
            result[String(key)] = String(value)
        }
        return result
    }

    /// The peer and its info from a received record, or nil when it is not a compatible peer
    /// (no identity, or another layout of the record).
    package static func peer(named name: String, from entries: [String: String]) -> (PeerID, DiscoveryInfo)? {
        guard entries[versionKey] == String(version),
              let identityText = entries[identityKey], let identity = UUID(uuidString: identityText),
              let peer = try? PeerID(displayName: name, identity: identity)
        else { return nil }
        return (peer, info(from: entries))
    }

    /// The application's entries of a received record: each entry ``DiscoveryInfo`` accepts is
    /// kept (in key order, while the record stays within its size), and an entry it refuses is
    /// dropped alone, so one bad entry does not cost a peer all its other facts.
    package static func info(from entries: [String: String]) -> DiscoveryInfo {
        var kept = DiscoveryInfo()
        for (key, value) in entries.sorted(by: { $0.key < $1.key }) where !reservedKeys.contains(key.lowercased()) {
            if let grown = try? kept.setting(key, to: value) { kept = grown }
        }
        return kept
    }
}

extension MultipeerError {
    /// The application's discovery info uses a key the TXT record reserves.
    package static func reservedDiscoveryKey(_ key: String) -> MultipeerError {
        MultipeerError(.invalidDiscoveryInfo, "The discovery info key “\(key)” is reserved for the library's own use; choose another key.")
    }
}
