/// One line of `guessnum doctor`: what was checked, what was found and, when it is a problem,
/// what to do about it.
public struct DoctorCheck: Sendable, Equatable, Codable {
    /// How a check came out.
    public enum Status: String, Sendable, Equatable, Codable {
        /// Nothing wrong.
        case ok
        /// Works, but something may stop players finding or reaching a game.
        case warning
        /// Broken: games cannot be announced, found or reached until it is fixed.
        case failed
        /// Not run (it needs root, a tool that is missing, or a check before it that failed).
        case skipped
    }

    /// A stable name for scripts: `dbus`, `avahi`, `interfaces`, `advertisement`, `games`,
    /// `firewall`, `addresses`, and with a site's zone `site-dns`, `site-dns-key`.
    public var id: String
    /// What is checked, as people read it (“avahi-daemon”).
    public var title: String
    /// How it came out.
    public var status: Status
    /// What was found, in one sentence without its full stop.
    public var finding: String
    /// What to do about it; nil when there is nothing to do.
    public var fix: String?
    /// The things found one by one (addresses, interfaces, firewall rules), for `--json`.
    public var items: [String]

    public init(id: String, title: String, status: Status, finding: String, fix: String? = nil, items: [String] = []) {
        self.id = id
        self.title = title
        self.status = status
        self.finding = finding
        self.fix = fix
        self.items = items
    }
}
