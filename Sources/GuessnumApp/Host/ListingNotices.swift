import SafeText

/// What the host reads about the name its game is listed under: nothing is claimed before the
/// announcement is established (Avahi may rename it "alice #2" when another game has the name),
/// and nothing is printed before the host's banner (lines that come earlier wait for it). The
/// listed name is told once.
struct ListingNotices: Sendable {
    /// The host's own name, the one the game asks to be listed under.
    let name: String
    private var bannerShown = false
    private var waiting: [String] = []
    private var told = false
    private var listedAs: String?

    init(name: String) {
        self.name = name
    }

    /// The announcement was renamed `listed`: the lines to print now.
    mutating func renamed(_ listed: String) -> [String] {
        listedAs = listed
        told = true
        return show("Another game on the LAN is called “\(TerminalText.sanitized(name))”; this one is listed as “\(TerminalText.sanitized(listed))”.")
    }

    /// The announcement is visible: the lines to print now (the listed name, the first time).
    mutating func established() -> [String] {
        guard !told else { return [] }
        told = true
        return show("The game is listed as “\(TerminalText.sanitized(listedAs ?? name))” in `guessnum join`.")
    }

    /// The banner was printed: the lines that waited for it.
    mutating func bannerPrinted() -> [String] {
        bannerShown = true
        defer { waiting = [] }
        return waiting
    }

    private mutating func show(_ line: String) -> [String] {
        guard bannerShown else {
            waiting.append(line)
            return []
        }
        return [line]
    }
}
