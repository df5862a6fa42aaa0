import Multipeer
import MultipeerPOSIX

/// Check 7: the addresses a host on this machine tells its players (in its join code and
/// `guessnum join ADDRESS:PORT` line), and the interfaces it leaves out.
enum AnnouncedAddressesCheck {
    static let id = "addresses"
    static let title = "addresses a host would announce"

    static func run(_ interfaces: [NetworkInterface]) -> DoctorCheck {
        let addresses = LocalAddresses(interfaces: interfaces, routing: NetworkInterfaces.defaultRouteInterfaces())
        let items = addresses.announced.map { "\($0.address) (\($0.interface))" }
        let leftOut = addresses.leftOutText.map { "; left out: \($0)" } ?? ""
        guard !items.isEmpty else {
            return DoctorCheck(
                id: id, title: title, status: .warning, finding: "none\(leftOut), so players on other machines could not reach a game hosted here",
                fix: "connect this machine to the players' network")
        }
        return DoctorCheck(id: id, title: title, status: .ok, finding: items.joined(separator: ", ") + leftOut, items: addresses.announced.map(\.address))
    }
}
