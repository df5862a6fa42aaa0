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
        guard let state = await state(of: system, within: .seconds(5)) else {
            return DoctorCheck(
                id: id, title: title, status: .failed, finding: "does not answer within 5 s",
                fix: "restart it: sudo systemctl restart avahi-daemon (and dbus if that does not help)")
        }
        switch state {
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

    /// The daemon's state, or nil when the question is not answered within `limit` (a hung bus
    /// or daemon). The question and its timer are tasks this call owns: whichever ends first
    /// cancels the other (a hung call that does not heed cancellation finishes on its own).
    static func state(of system: DoctorSystem, within limit: Duration) async -> DoctorSystem.AvahiState? {
        let waiting = Protected<CheckedContinuation<DoctorSystem.AvahiState?, Never>?>(nil)
        var question: Task<Void, Never>?
        var timer: Task<Void, Never>?
        let state = await withCheckedContinuation { continuation in
            waiting.withLock { $0 = continuation }
            question = Task {
                let state = await system.avahiState()
                waiting.withLock { $0.take() }?.resume(returning: state)
            }
            timer = Task {
                try? await Task.sleep(for: limit)
                waiting.withLock { $0.take() }?.resume(returning: nil)
            }
        }
        question?.cancel()
        timer?.cancel()
        return state
    }
}
