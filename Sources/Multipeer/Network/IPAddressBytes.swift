/// A numeric IPv4 or IPv6 address as its bytes, for comparing networks; the scope of an IPv6
/// link-local address (`%eth0`) is kept apart.
package struct IPAddressBytes: Hashable, Sendable {
    let bytes: [UInt8]
    /// The interface named after `%`, if any.
    let scope: String?

    package var isIPv6: Bool { bytes.count == 16 }

    /// Parses numeric text (`10.0.0.5`, `fd00::1`, `fe80::1%eth0`); nil for a host name.
    init?(_ text: String) {
        var address = Substring(text)
        var scope: String?
        if let percent = text.firstIndex(of: "%") {
            address = text[..<percent]
            scope = String(text[text.index(after: percent)...])
        }
        if scope == nil, let v4 = IPAddressText.parseIPv4(Array(address.utf8)) {
            bytes = v4
        } else if let v6 = IPAddressText.parseIPv6(String(address)) {
            bytes = v6
        } else {
            return nil
        }
        self.scope = scope
    }

    /// The address of 4 (IPv4) or 16 (IPv6) bytes; nil for another length.
    package init?(bytes: [UInt8], scope: String? = nil) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
        self.scope = scope
    }

    /// The numeric text, without the scope.
    package var text: String {
        isIPv6 ? IPAddressText.formatIPv6(bytes) : IPAddressText.formatIPv4(bytes)
    }

    /// How many leading bits are set: a netmask's prefix length.
    package var leadingOnes: Int {
        var count = 0
        for byte in bytes {
            if byte == 0xFF { count += 8; continue }
            count += (~byte).leadingZeroBitCount
            break
        }
        return count
    }

    /// Whether both are of one family and agree in their first `prefixLength` bits.
    func sharesPrefix(with other: IPAddressBytes, length prefixLength: Int) -> Bool {
        guard bytes.count == other.bytes.count, prefixLength <= bytes.count * 8 else { return false }
        let whole = prefixLength / 8
        guard bytes[..<whole] == other.bytes[..<whole] else { return false }
        let rest = prefixLength % 8
        guard rest > 0 else { return true }
        let mask = UInt8(0xFF) << (8 - rest)
        return bytes[whole] & mask == other.bytes[whole] & mask
    }

    /// `fe80::/10` or `169.254.0.0/16`.
    var isLinkLocal: Bool {
        isIPv6 ? bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 : bytes[0] == 169 && bytes[1] == 254
    }

    /// `127.0.0.0/8` or `::1`.
    var isLoopback: Bool {
        isIPv6 ? bytes == [UInt8](repeating: 0, count: 15) + [1] : bytes[0] == 127
    }
}
