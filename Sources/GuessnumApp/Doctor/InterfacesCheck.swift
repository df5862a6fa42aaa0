/// Check 3: which interfaces are up, with their addresses and whether they do multicast.
/// Fails when no interface but loopback is up with an address; warns about a LAN interface
/// without multicast, on which mDNS cannot work.
enum InterfacesCheck {
    static let id = "interfaces"
    static let title = "network interfaces"

    static func run(_ interfaces: [NetworkInterface]) -> DoctorCheck {
        let up = interfaces.filter(\.isUp)
        let items = up.map(describe)
        let usable = up.filter { !$0.isLoopback && !$0.addresses.isEmpty }
        guard !usable.isEmpty else {
            return DoctorCheck(
                id: id, title: title, status: .failed,
                finding: up.isEmpty ? "no interface is up" : "only loopback is up with an address (\(items.joined(separator: "; ")))",
                fix: "connect this machine to the network (Wi-Fi or cable) and check that it has an address: ip address",
                items: items)
        }
        let lan = usable.filter { LocalAddresses.virtualKind(of: $0.name) == nil }
        let silent = lan.filter { !$0.supportsMulticast }
        if !silent.isEmpty {
            let names = silent.map(\.name).joined(separator: ", ")
            return DoctorCheck(
                id: id, title: title, status: lan.count == silent.count ? .failed : .warning,
                finding: "\(items.joined(separator: "; ")); \(names) cannot multicast, so games are neither announced nor found there",
                fix: "turn multicast on: sudo ip link set \(silent[0].name) multicast on", items: items)
        }
        return DoctorCheck(id: id, title: title, status: .ok, finding: items.joined(separator: "; "), items: items)
    }

    /// “lan0 10.77.55.10, fe80::1 (multicast)”, “lo 127.0.0.1 (loopback)”, “docker0 … (a container bridge)”.
    static func describe(_ interface: NetworkInterface) -> String {
        let addresses = interface.addresses.isEmpty ? "no address" : interface.addresses.map(\.address).joined(separator: ", ")
        var notes: [String] = []
        if interface.isLoopback {
            notes.append("loopback")
        } else {
            notes.append(interface.supportsMulticast ? "multicast" : "no multicast")
            if let kind = LocalAddresses.virtualKind(of: interface.name) { notes.append(kind.rawValue) }
        }
        return "\(interface.name) \(addresses) (\(notes.joined(separator: ", ")))"
    }
}
