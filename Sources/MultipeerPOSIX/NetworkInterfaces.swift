import Foundation
import Multipeer
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

    /// The interfaces that carry a default route (IPv4 or IPv6): the way to the rest of the
    /// network, and on most machines the LAN the players are on. Read from `/proc/net`; empty
    /// where that is not available.
    public static func defaultRouteInterfaces() -> Set<String> {
        defaultRouteInterfaces(
            ipv4Routes: (try? String(contentsOfFile: "/proc/net/route", encoding: .utf8)) ?? "",
            ipv6Routes: (try? String(contentsOfFile: "/proc/net/ipv6_route", encoding: .utf8)) ?? "")
    }

    /// The interfaces with a default route in the text of `/proc/net/route` and
    /// `/proc/net/ipv6_route`; loopback and reject routes (which say "no route") do not count.
    static func defaultRouteInterfaces(ipv4Routes: String, ipv6Routes: String) -> Set<String> {
        var found: Set<String> = []
        for line in ipv4Routes.split(separator: "\n").dropFirst() {
            let fields = line.split(whereSeparator: \.isWhitespace)
            // Iface Destination Gateway Flags RefCnt Use Metric Mask …
            guard fields.count >= 8, fields[1] == "00000000", fields[7] == "00000000",
                  let flags = Int(fields[3], radix: 16), flags & 0x0200 == 0 else { continue }
            found.insert(String(fields[0]))
        }
        for line in ipv6Routes.split(separator: "\n") {
            let fields = line.split(whereSeparator: \.isWhitespace)
            // destination prefix-length source source-length next-hop metric refcount use flags interface
            guard fields.count >= 10, fields[0].allSatisfy({ $0 == "0" }), fields[1] == "00",
                  let flags = Int(fields[8], radix: 16), flags & 0x0200 == 0, fields[9] != "lo" else { continue }
            found.insert(String(fields[9]))
        }
        return found
    }
}

extension IPAddressBytes {
    /// The address in a `sockaddr` of family `AF_INET` or `AF_INET6`; nil for other families.
    init?(socketAddress address: UnsafeMutablePointer<sockaddr>) {
        let bytes: [UInt8]
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            bytes = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { withUnsafeBytes(of: $0.pointee.sin_addr) { Array($0) } }
        case AF_INET6:
            bytes = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) } }
        default:
            return nil
        }
        self.init(bytes: bytes)
    }
}
