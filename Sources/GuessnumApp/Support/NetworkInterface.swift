#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One network interface of this machine as the system reports it (getifaddrs): its name, its
/// flags, and its IPv4 and IPv6 addresses.
public struct NetworkInterface: Sendable, Equatable {
    /// The interface's name (`eth0`, `wlan0`, `lo`).
    public var name: String
    /// Whether it is up (IFF_UP).
    public var isUp: Bool
    /// Whether it is a loopback interface (IFF_LOOPBACK).
    public var isLoopback: Bool
    /// Whether it does multicast (IFF_MULTICAST), which mDNS needs.
    public var supportsMulticast: Bool
    /// Its IPv4 and IPv6 addresses, in the system's order.
    public var addresses: [LocalAddresses.Address]

    public init(name: String, isUp: Bool, isLoopback: Bool, supportsMulticast: Bool, addresses: [LocalAddresses.Address]) {
        self.name = name
        self.isUp = isUp
        self.isLoopback = isLoopback
        self.supportsMulticast = supportsMulticast
        self.addresses = addresses
    }

    /// This machine's interfaces now, in the system's order; empty when they cannot be read.
    public static func current() -> [NetworkInterface] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var interfaces: [NetworkInterface] = []
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            let flags = Int32(bitPattern: entry.pointee.ifa_flags)
            let name = String(cString: entry.pointee.ifa_name)
            let index: Int
            if let found = interfaces.firstIndex(where: { $0.name == name }) {
                index = found
            } else {
                interfaces.append(NetworkInterface(
                    name: name, isUp: flags & Int32(IFF_UP) != 0, isLoopback: flags & Int32(IFF_LOOPBACK) != 0,
                    supportsMulticast: flags & Int32(IFF_MULTICAST) != 0, addresses: []))
                index = interfaces.count - 1
            }
            if let address = entry.pointee.ifa_addr, let text = numericText(of: address) {
                interfaces[index].addresses.append(
                    LocalAddresses.Address(interface: name, address: text, isIPv6: Int32(address.pointee.sa_family) == AF_INET6))
            }
        }
        return interfaces
    }

    /// `192.168.1.20` or `fe80::1` for an IPv4 or IPv6 socket address; nil for any other family.
    private static func numericText(of address: UnsafeMutablePointer<sockaddr>) -> String? {
        let family = Int32(address.pointee.sa_family)
        guard family == AF_INET || family == AF_INET6 else { return nil }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let ok: Bool
        if family == AF_INET {
            ok = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                var raw = ipv4.pointee.sin_addr
                return inet_ntop(AF_INET, &raw, &text, socklen_t(text.count)) != nil
            }
        } else {
            ok = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                var raw = ipv6.pointee.sin6_addr
                return inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count)) != nil
            }
        }
        guard ok else { return nil }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
