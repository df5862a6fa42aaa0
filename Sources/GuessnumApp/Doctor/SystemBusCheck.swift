/// Check 1: the D-Bus system bus, through which programs reach avahi-daemon, accepts connections.
enum SystemBusCheck {
    static let id = "dbus"
    static let title = "D-Bus system bus"

    static func run(_ system: DoctorSystem) -> DoctorCheck {
        let address = SystemBusAddress(environment: system.environment)
        let fix = "start it: sudo systemctl start dbus (install it first if need be: sudo apt install dbus)"
        func check(_ status: DoctorCheck.Status, _ finding: String, fix: String? = nil) -> DoctorCheck {
            DoctorCheck(id: id, title: title, status: status, finding: finding, fix: fix, items: [address.description])
        }
        if case .other(let given) = address {
            return check(.skipped, "DBUS_SYSTEM_BUS_ADDRESS is \(given), which is not a Unix socket this check can try")
        }
        switch system.connectToBus(address) {
        case .accepted: return check(.ok, "reachable at \(address)")
        case .missing: return check(.failed, "not running: there is no socket at \(address)", fix: fix)
        case .refused: return check(.failed, "not running: nothing answers at \(address)", fix: fix)
        case .busy: return check(.failed, "not answering: it takes no connections at \(address)", fix: "restart it: sudo systemctl restart dbus")
        case .failed(let reason): return check(.failed, "cannot be reached at \(address) (\(reason))", fix: fix)
        }
    }
}
