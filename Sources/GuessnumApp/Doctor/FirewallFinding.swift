/// A firewall rule or chain policy that keeps mDNS or the game's TCP port out, as found in
/// `nft list ruleset` or `iptables-save`.
public struct FirewallFinding: Sendable, Equatable {
    /// What the rule blocks.
    public enum Blocks: String, Sendable, Equatable {
        /// Incoming mDNS (UDP 5353), so games are neither announced to nor found by this machine.
        case multicastDNS
        /// Incoming TCP to the game's port.
        case gamePort
        /// Incoming TCP to any port not accepted otherwise (an input policy of drop, or a rule that
        /// drops all TCP); which port a host uses is not known without `--port`.
        case unknownPort
    }

    /// What it blocks.
    public var blocks: Blocks
    /// Where it is: “table inet gnlanfw, chain input” (nftables) or “iptables, chain INPUT”.
    public var location: String
    /// The rule exactly as the tool prints it (“tcp dport 4000 drop”), or “policy drop”.
    public var rule: String
    /// The command that lets the traffic in.
    public var allowCommand: String

    public init(blocks: Blocks, location: String, rule: String, allowCommand: String) {
        self.blocks = blocks
        self.location = location
        self.rule = rule
        self.allowCommand = allowCommand
    }

    /// “table inet gnlanfw, chain input: tcp dport 4000 drop”.
    public var text: String { "\(location): \(rule)" }
}

/// The ports a rule matches: `4000`, `5000-6000`, `{ 22, 5353 }`, `mdns`, `!= 22`.
struct PortMatch: Equatable {
    var ranges: [ClosedRange<Int>]
    var negated = false

    /// Parses the ports of `text` (without the `!=`); nil when a part is not a port.
    init?(_ text: String, negated: Bool = false, rangeSeparator: Character = "-") {
        var ranges: [ClosedRange<Int>] = []
        let parts = text.trimmingCharacters(in: ["{", "}", " "]).split(whereSeparator: { $0 == "," || $0 == " " })
        for part in parts where !part.isEmpty {
            let bounds = part.split(separator: rangeSeparator, maxSplits: 1).map { Self.port(String($0)) }
            guard let low = bounds.first ?? nil, let high = bounds.last ?? nil, low <= high else { return nil }
            ranges.append(low...high)
        }
        guard !ranges.isEmpty else { return nil }
        self.ranges = ranges
        self.negated = negated
    }

    func covers(_ port: Int) -> Bool {
        ranges.contains { $0.contains(port) } != negated
    }

    /// A number, or a service name nft or iptables may print instead.
    private static func port(_ text: String) -> Int? {
        if let number = Int(text), (0...65535).contains(number) { return number }
        return ["mdns": 5353, "ssh": 22, "http": 80, "https": 443][text]
    }
}
