import NIOCore

/// Writes socket addresses the way people read them: `127.0.0.1:54321`, `[fe80::1]:7777`.
enum RemoteAddressText {
    static func describe(_ address: SocketAddress) -> String {
        guard var host = address.ipAddress, let port = address.port else { return "\(address)" }
        // A dual-stack listener sees IPv4 peers as IPv4-mapped IPv6 addresses; show them as IPv4.
        if host.lowercased().hasPrefix("::ffff:"), host.contains(".") {
            host.removeFirst("::ffff:".count)
        }
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
