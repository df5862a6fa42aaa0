import Multipeer
import MultipeerPOSIX

/// One network interface of this machine as the system reports it (``Multipeer/NetworkInterfaces``):
/// its name, its flags, and its IPv4 and IPv6 addresses.
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

    /// This machine's interfaces that are up and have an address, in the system's order;
    /// empty when they cannot be read.
    public static func current() -> [NetworkInterface] {
        var interfaces: [NetworkInterface] = []
        for entry in NetworkInterfaces.current() {
            let address = LocalAddresses.Address(interface: entry.interface, address: entry.address, isIPv6: entry.isIPv6)
            if let index = interfaces.firstIndex(where: { $0.name == entry.interface }) {
                interfaces[index].addresses.append(address)
            } else {
                interfaces.append(NetworkInterface(
                    name: entry.interface, isUp: true, isLoopback: entry.kind == .loopback, supportsMulticast: entry.supportsMulticast,
                    addresses: [address]))
            }
        }
        return interfaces
    }
}
