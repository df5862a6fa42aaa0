import Multipeer

/// Whether avahi-daemon answers, as `guessnum doctor` asks it.
public enum AvahiDaemonStatus: Sendable, Equatable {
    /// The daemon answers; `version` as it tells it (“avahi 0.8”).
    case running(version: String?)
    /// The system bus answers but the daemon is not on it (the client waits for it).
    case notRunning
}

extension AvahiDiscovery {
    /// Whether the daemon answers now, connecting to it first if need be.
    /// - Throws: ``MultipeerError/Code/discoveryUnavailable`` when not even the connection can be
    ///   set up (typically: no D-Bus system bus).
    public func daemonStatus() throws(MultipeerError) -> AvahiDaemonStatus {
        let runtime = try connectedRuntime()
        return try runtime.locked { runtime.isRunning ? .running(version: runtime.daemonVersion) : .notRunning }
    }
}
