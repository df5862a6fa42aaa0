/// Where a listening session can be reached: a host name or IP address and a TCP port.
public struct Endpoint: Hashable, Sendable, CustomStringConvertible {
    /// A host name, an IPv4 address or an IPv6 address (without brackets).
    public let host: String
    /// A TCP port, 1 to 65535.
    public let port: Int

    /// Creates an endpoint.
    /// - Throws: ``MultipeerError/Code/invalidEndpoint`` for an empty host or a port outside 1–65535.
    public init(host: String, port: Int) throws(MultipeerError) {
        guard !host.isEmpty, (1...65535).contains(port), !host.contains(where: \.isWhitespace) else {
            throw .invalidEndpoint("\(host):\(port)")
        }
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT`, `IPV4:PORT` or `[IPV6]:PORT`.
    /// - Throws: ``MultipeerError/Code/invalidEndpoint``.
    public init(parsing text: String) throws(MultipeerError) {
        let host: Substring
        let portText: Substring
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw .invalidEndpoint(text) }
            portText = rest.dropFirst()
        } else {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2 else { throw .invalidEndpoint(text) }
            host = parts[0]
            portText = parts[1]
        }
        guard let port = Int(portText), Self.canName(host, bracketed: text.hasPrefix("[")) else { throw .invalidEndpoint(text) }
        do { try self.init(host: String(host), port: port) } catch { throw .invalidEndpoint(text) }
    }

    /// Whether `host` can name a machine as written: in brackets, an IPv6 address (with a
    /// scope after `%` if any); made of digits and dots only, an IPv4 address (no host name is
    /// all digits, so "999.1.1.1" is a mistake, not a name to look up); otherwise a host name
    /// of letters, digits, hyphens and dots.
    static func canName(_ host: Substring, bracketed: Bool) -> Bool {
        if bracketed {
            let address = host.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false)[0]
            return address.contains(":") && address.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        }
        if host.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) {
            let parts = host.split(separator: ".", omittingEmptySubsequences: false)
            return parts.count == 4 && parts.allSatisfy { part in
                (1...3).contains(part.count) && (Int(part).map { $0 <= 255 } ?? false)
            }
        }
        return host.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }
    }

    /// `HOST:PORT`, with brackets around an IPv6 address.
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// "A", "A or B", "A, B or C": addresses as a sentence names them.
    public static func spokenList(_ endpoints: [Endpoint]) -> String {
        let texts = endpoints.map(\.description)
        guard let last = texts.last else { return "no address" }
        return texts.count == 1 ? last : texts.dropLast().joined(separator: ", ") + " or " + last
    }
}
