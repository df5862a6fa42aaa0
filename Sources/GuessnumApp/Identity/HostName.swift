import SafeText

/// How a player's side compares the names of hosts: two names are one host name when they look
/// alike (their confusable skeletons are equal: "rt", "Rt", "rt " and a Cyrillic "rт") once the
/// suffix Avahi adds to a name already taken on the LAN (" #2") is set aside — so a game
/// announced under a taken name, or under a lookalike of it, is never mistaken for it.
enum HostName {
    /// The key `name` is compared by.
    static func key(_ name: String) -> String {
        ConfusableSkeleton.of(withoutCollisionSuffix(name))
    }

    /// `name` without a trailing " #N" (N a number above 1), which Avahi appends to a service
    /// name that another service on the LAN holds.
    static func withoutCollisionSuffix(_ name: String) -> String {
        guard let hash = name.range(of: " #", options: .backwards) else { return name }
        let number = name[hash.upperBound...]
        guard !number.isEmpty, number.allSatisfy(\.isASCII), number.allSatisfy(\.isNumber), let value = Int(number), value > 1 else { return name }
        return String(name[..<hash.lowerBound])
    }

    /// The name a joined host is shown and remembered under: `listed`, the name its game was
    /// listed under, when that is the name the host gives itself on connecting (`answering`,
    /// sent over the connection whose key TLS proved) or that name with Avahi's suffix ("alice
    /// #2"); otherwise `answering` — anyone may announce a record under any name with another
    /// host's identity, and such a name must not become the real host's.
    static func joined(listedAs listed: String, answering: String) -> String {
        withoutCollisionSuffix(listed) == answering ? listed : answering
    }
}
