/// The numeric text of IP addresses, read and written in Swift as the C library's
/// `inet_pton` and `inet_ntop` do (glibc's rules: dotted quads without leading zeros; IPv6 in
/// groups of up to four hex digits, one `::`, an IPv4 tail; the longest run of two or more zero
/// groups written `::`, the first of equal runs; `::a.b.c.d` and `::ffff:a.b.c.d` with their
/// IPv4 tail), so that the core calls no system function for them.
enum IPAddressText {
    /// The 4 bytes of a dotted quad (`10.0.0.5`); nil for anything else.
    static func parseIPv4<Text: Collection<UInt8>>(_ text: Text) -> [UInt8]? {
        var octets: [UInt8] = []
        var current = 0
        var sawDigit = false
        for character in text {
            if let digit = decimal(character) {
                if sawDigit, current == 0 { return nil }  // a leading zero
                current = current * 10 + digit
                if current > 255 { return nil }
                if !sawDigit {
                    if octets.count == 4 { return nil }
                    sawDigit = true
                }
            } else if character == UInt8(ascii: "."), sawDigit {
                if octets.count == 3 { return nil }
                octets.append(UInt8(current))
                current = 0
                sawDigit = false
            } else {
                return nil
            }
        }
        guard sawDigit, octets.count == 3 else { return nil }
        return octets + [UInt8(current)]
    }

    /// The 16 bytes of an IPv6 address's text (`fd00::1`, `::ffff:10.0.0.5`); nil for anything else.
    static func parseIPv6(_ text: String) -> [UInt8]? {
        var input = Array(text.utf8)[...]
        if input.first == UInt8(ascii: ":") {
            input = input.dropFirst()
            guard input.first == UInt8(ascii: ":") else { return nil }
        }
        var bytes: [UInt8] = []
        var compressed: Int?
        var value = 0
        var digits = 0
        var tokenStart = input.startIndex
        var index = input.startIndex
        while index < input.endIndex {
            let character = input[index]
            index += 1
            if let digit = hex(character) {
                value = value << 4 | digit
                digits += 1
                if digits > 4 { return nil }
                continue
            }
            if character == UInt8(ascii: ":") {
                tokenStart = index
                if digits == 0 {
                    if compressed != nil { return nil }
                    compressed = bytes.count
                    continue
                }
                if index == input.endIndex || bytes.count + 2 > 16 { return nil }
                bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
                value = 0
                digits = 0
                continue
            }
            if character == UInt8(ascii: "."), bytes.count + 4 <= 16, let tail = parseIPv4(input[tokenStart...]) {
                bytes += tail
                digits = 0
                index = input.endIndex
                break
            }
            return nil
        }
        if digits > 0 {
            if bytes.count + 2 > 16 { return nil }
            bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
        }
        if let compressed {
            if bytes.count == 16 { return nil }
            let zeros = [UInt8](repeating: 0, count: 16 - bytes.count)
            bytes.insert(contentsOf: zeros, at: compressed)
        }
        return bytes.count == 16 ? bytes : nil
    }

    /// The dotted quad of 4 bytes.
    static func formatIPv4(_ bytes: some Collection<UInt8>) -> String {
        bytes.map { String($0) }.joined(separator: ".")
    }

    /// The text of 16 bytes, as `inet_ntop` writes it.
    static func formatIPv6(_ bytes: [UInt8]) -> String {
        let words = (0..<8).map { Int(bytes[2 * $0]) << 8 | Int(bytes[2 * $0 + 1]) }
        var best: (base: Int, length: Int)?
        var current: (base: Int, length: Int)?
        for (index, word) in words.enumerated() {
            if word == 0 {
                current = current.map { ($0.base, $0.length + 1) } ?? (index, 1)
            } else if let run = current {
                if best == nil || run.length > best!.length { best = run }
                current = nil
            }
        }
        if let run = current, best == nil || run.length > best!.length { best = run }
        if let run = best, run.length < 2 { best = nil }
        var text = ""
        for index in 0..<8 {
            if let run = best, index >= run.base, index < run.base + run.length {
                if index == run.base { text += ":" }
                continue
            }
            if index != 0 { text += ":" }
            if index == 6, let run = best, run.base == 0, run.length == 6 || (run.length == 5 && words[5] == 0xFFFF) {
                text += formatIPv4(bytes[12...])
                return text
            }
            text += String(words[index], radix: 16)
        }
        if let run = best, run.base + run.length == 8 { text += ":" }
        return text
    }

    private static func decimal(_ character: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(character) ? Int(character - UInt8(ascii: "0")) : nil
    }

    private static func hex(_ character: UInt8) -> Int? {
        if let digit = decimal(character) { return digit }
        switch character {
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(character - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(character - UInt8(ascii: "A")) + 10
        default: return nil
        }
    }
}
