/// Check 2: avahi-daemon, which announces and finds games (mDNS), runs and answers.
enum AvahiDaemonCheck {
    static let id = "avahi"
    static let title = "avahi-daemon"
    /// Where Debian installs the daemon.
    static let daemonPath = "/usr/sbin/avahi-daemon"
    static let startFix = "start it: sudo systemctl start avahi-daemon"

    static func run(_ system: DoctorSystem, busReachable: Bool) async -> DoctorCheck {
        guard busReachable else {
            return DoctorCheck(id: id, title: title, status: .skipped, finding: "it is reached over the D-Bus system bus, which is not running")
        }
        switch await system.avahiState() {
        case .running(let version):
            return DoctorCheck(id: id, title: title, status: .ok, finding: "running" + (version.map { " (\($0))" } ?? ""))
        case .notRunning where !system.fileExists(daemonPath):
            return DoctorCheck(
                id: id, title: title, status: .failed, finding: "not installed (\(daemonPath) is missing)",
                fix: "install and start it: sudo apt install avahi-daemon && sudo systemctl start avahi-daemon")
        case .notRunning:
            return DoctorCheck(id: id, title: title, status: .failed, finding: "not running", fix: startFix)
        case .unreachable(let reason):
            return DoctorCheck(
                id: id, title: title, status: .failed, finding: "cannot be reached (\(reason))",
                fix: "start the system bus and the daemon: sudo systemctl start dbus avahi-daemon")
        }
    }
}
