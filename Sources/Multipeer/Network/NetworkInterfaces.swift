#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// This machine's network interfaces, as the system reports them now.
public enum NetworkInterfaces {
    /// Every IPv4 and IPv6 address of every interface that is up, in the system's order.
    public static func current() -> [InterfaceAddress] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var found: [InterfaceAddress] = []
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            let flags = Int32(bitPattern: entry.pointee.ifa_flags)
            guard let address = entry.pointee.ifa_addr, flags & Int32(IFF_UP) != 0 else { continue }
            guard let ip = IPAddressBytes(socketAddress: address) else { continue }
            let prefix = entry.pointee.ifa_netmask.flatMap(IPAddressBytes.init(socketAddress:))?.leadingOnes ?? (ip.isIPv6 ? 128 : 32)
            let name = String(cString: entry.pointee.ifa_name)
            let kind: InterfaceAddress.Kind = flags & Int32(IFF_LOOPBACK) != 0 ? .loopback : InterfaceAddress.kind(ofInterfaceNamed: name)
            found.append(InterfaceAddress(
                interface: name, address: ip.text, prefixLength: prefix, isIPv6: ip.isIPv6,
                supportsMulticast: flags & Int32(IFF_MULTICAST) != 0, kind: kind))
        }
        return found
    }
}
