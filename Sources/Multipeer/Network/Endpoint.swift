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
        guard let port = Int(portText) else { throw .invalidEndpoint(text) }
        do { try self.init(host: String(host), port: port) } catch { throw .invalidEndpoint(text) }
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
