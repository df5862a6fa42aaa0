import CAvahi
import Multipeer

/// The Avahi backend's sentences.
extension MultipeerError {
    /// The daemon is not running (or not reachable on the system bus).
    static var avahiDaemonMissing: MultipeerError {
        MultipeerError(.discoveryUnavailable, "avahi-daemon is not running, so peers can neither be announced nor found on the LAN; start it (for example `systemctl start avahi-daemon`) and discovery resumes by itself. Meanwhile peers can still connect directly by address (HOST:PORT).")
    }

    /// The daemon went away while in use.
    static var avahiDaemonStopped: MultipeerError {
        MultipeerError(.discoveryUnavailable, "avahi-daemon stopped, so peers can neither be announced nor found on the LAN; restart it and discovery resumes by itself. Meanwhile peers can still connect directly by address (HOST:PORT).")
    }

    /// Not even the connection to the daemon could be set up (typically: no D-Bus system bus).
    static func avahiUnreachable(_ code: Int32) -> MultipeerError {
        MultipeerError(.discoveryUnavailable, "avahi-daemon cannot be reached (\(avahiText(code))): check that the D-Bus system bus and avahi-daemon are running. Meanwhile peers can still connect directly by address (HOST:PORT).")
    }

    static func avahiUnavailable(_ problem: String) -> MultipeerError {
        MultipeerError(.discoveryUnavailable, "Discovery over Avahi is unavailable: this program \(problem). Peers can still connect directly by address (HOST:PORT).")
    }

    static func avahiFailed(_ code: Int32) -> MultipeerError {
        MultipeerError(.discoveryFailed, "Avahi reported an error: \(avahiText(code)). Discovery will retry when avahi-daemon is available again.")
    }

    static func avahiPublishFailed(_ name: String, _ code: Int32) -> MultipeerError {
        MultipeerError(.discoveryFailed, "Could not announce “\(name)” over Avahi: \(avahiText(code)).")
    }

    static func avahiBrowseFailed(_ type: String, _ code: Int32) -> MultipeerError {
        MultipeerError(.discoveryFailed, "Could not look for \(type) services over Avahi: \(avahiText(code)).")
    }

    private static func avahiText(_ code: Int32) -> String {
        guard let text = avahi_strerror(code) else { return "error \(code)" }
        return String(cString: text).lowercased()
    }
}
