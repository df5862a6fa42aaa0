/// Reads `nft list ruleset`: the rules and input policies that keep mDNS (UDP 5353) or the
/// game's TCP port out.
///
/// Looked at: the chains of `ip`, `ip6` and `inet` tables that filter what arrives (hooked to
/// `input` or `prerouting`, or regular chains that such chains may jump to). Found:
/// - a `drop` or `reject` rule on `udp dport` 5353, or on `tcp dport` the given port (single
///   ports, ranges, sets and `!=`), unless a rule before it in the chain accepts that port;
/// - a rule that drops everything (`drop`, `counter drop`, `meta l4proto tcp drop`);
/// - an input chain with `policy drop` whose table accepts neither the port nor mDNS anywhere.
///
/// Other rules (`ct state invalid drop`, rules on addresses) are left alone.
enum NftablesRuleset {
    private struct Chain {
        let table: String
        let name: String
        var hook: String?
        var policy: String?
        var rules: [String] = []
        var location: String { "table \(table), chain \(name)" }
    }

    static func findings(in ruleset: String, port: Int?) -> [FirewallFinding] {
        let chains = parse(ruleset)
        var findings: [FirewallFinding] = []
        let acceptedInTable: [String: [String]] = Dictionary(grouping: chains, by: \.table).mapValues { $0.flatMap(\.rules).filter(isAccept) }
        for chain in chains where ["input", "prerouting", nil].contains(chain.hook) {
            func allow(_ match: String) -> String { "sudo nft insert rule \(chain.table) \(chain.name) \(match) accept" }
            var accepted: [String] = []
            for rule in chain.rules {
                if isAccept(rule) { accepted.append(rule); continue }
                guard isDrop(rule) else { continue }
                let shown = shownRule(rule)
                if covers(rule, "udp", 5353), !accepted.contains(where: { covers($0, "udp", 5353) }) {
                    findings.append(FirewallFinding(blocks: .multicastDNS, location: chain.location, rule: shown, allowCommand: allow("udp dport 5353")))
                } else if let port, covers(rule, "tcp", port), !accepted.contains(where: { covers($0, "tcp", port) }) {
                    findings.append(FirewallFinding(blocks: .gamePort, location: chain.location, rule: shown, allowCommand: allow("tcp dport \(port)")))
                } else if let everything = dropsEverything(rule) {
                    if everything != "tcp", !accepted.contains(where: { covers($0, "udp", 5353) }) {
                        findings.append(FirewallFinding(blocks: .multicastDNS, location: chain.location, rule: shown, allowCommand: allow("udp dport 5353")))
                    }
                    if everything != "udp" {
                        let blocks: FirewallFinding.Blocks = port == nil ? .unknownPort : .gamePort
                        if port.map({ p in !accepted.contains(where: { covers($0, "tcp", p) }) }) ?? true {
                            findings.append(FirewallFinding(blocks: blocks, location: chain.location, rule: shown, allowCommand: allow("tcp dport \(port.map(String.init) ?? "PORT")")))
                        }
                    }
                }
            }
            guard chain.hook == "input", chain.policy == "drop" else { continue }
            let tableAccepts = acceptedInTable[chain.table] ?? []
            if !tableAccepts.contains(where: { covers($0, "udp", 5353) }) {
                findings.append(FirewallFinding(blocks: .multicastDNS, location: chain.location, rule: "policy drop", allowCommand: allow("udp dport 5353")))
            }
            if let port {
                if !tableAccepts.contains(where: { covers($0, "tcp", port) }) {
                    findings.append(FirewallFinding(blocks: .gamePort, location: chain.location, rule: "policy drop", allowCommand: allow("tcp dport \(port)")))
                }
            } else {
                findings.append(FirewallFinding(blocks: .unknownPort, location: chain.location, rule: "policy drop", allowCommand: allow("tcp dport PORT")))
            }
        }
        return findings
    }

    /// The chains of the filtering tables, with their hooks, policies and rules.
    private static func parse(_ ruleset: String) -> [Chain] {
        enum Block { case table(String), chain, other }
        var blocks: [Block] = []
        var chains: [Chain] = []
        var current: Chain?
        for rawLine in ruleset.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            let opens = line.filter { $0 == "{" }.count - line.filter { $0 == "}" }.count
            let words = line.split(separator: " ").map(String.init)
            if line.hasPrefix("table "), opens > 0, words.count >= 3 {
                blocks.append(.table("\(words[1]) \(words[2])"))
                continue
            }
            if line.hasPrefix("chain "), opens > 0, words.count >= 2, case .table(let table)? = blocks.last {
                blocks.append(.chain)
                let family = table.split(separator: " ").first.map(String.init) ?? ""
                current = ["ip", "ip6", "inet"].contains(family) ? Chain(table: table, name: words[1]) : nil
                continue
            }
            if case .chain? = blocks.last, opens == 0, !line.isEmpty, current != nil {
                if line.hasPrefix("type ") {
                    current?.hook = value(after: "hook", in: words)
                    current?.policy = value(after: "policy", in: words)?.trimmingCharacters(in: [";"])
                } else if line.hasPrefix("policy ") {
                    current?.policy = value(after: "policy", in: words)?.trimmingCharacters(in: [";"])
                } else if !line.hasPrefix("comment ") {
                    current?.rules.append(line)
                }
                continue
            }
            if opens > 0 {
                for _ in 0..<opens { blocks.append(.other) }
            } else if opens < 0 {
                for _ in 0..<(-opens) {
                    if case .chain? = blocks.last, let chain = current {
                        chains.append(chain)
                        current = nil
                    }
                    if !blocks.isEmpty { blocks.removeLast() }
                }
            }
        }
        return chains
    }

    private static func value(after key: String, in words: [String]) -> String? {
        guard let index = words.firstIndex(of: key), index + 1 < words.count else { return nil }
        return words[index + 1].trimmingCharacters(in: [";"])
    }

    /// The rule's words without its comment, counters and handle: what decides what it matches.
    static func words(of rule: String) -> [String] {
        var text = rule
        if let comment = text.range(of: "comment \"") {
            let rest = text[comment.upperBound...]
            let end = rest.firstIndex(of: "\"").map { rest.index(after: $0) } ?? text.endIndex
            text.removeSubrange(comment.lowerBound..<end)
        }
        if let handle = text.range(of: " # handle ") { text.removeSubrange(handle.lowerBound...) }
        var words = text.split(separator: " ").map(String.init)
        var kept: [String] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            if word == "packets" || word == "bytes" { index += 2; continue }
            if word == "counter" { index += 1; continue }
            kept.append(word)
            index += 1
        }
        words = kept
        return words
    }

    private static func verdict(of rule: String) -> String? {
        words(of: rule).first { ["accept", "drop", "reject"].contains($0) }
    }

    static func isDrop(_ rule: String) -> Bool { verdict(of: rule).map { $0 == "drop" || $0 == "reject" } ?? false }
    static func isAccept(_ rule: String) -> Bool { verdict(of: rule) == "accept" }

    /// The rule as nft prints it, without its handle.
    private static func shownRule(_ rule: String) -> String {
        guard let handle = rule.range(of: " # handle ") else { return rule }
        return String(rule[..<handle.lowerBound])
    }

    /// Whether `rule` matches `proto` (tcp, udp) packets to `port`: `tcp dport 4000`,
    /// `udp dport { 53, 5353 }`, `th dport 5353` after `meta l4proto udp`.
    static func covers(_ rule: String, _ proto: String, _ port: Int) -> Bool {
        let words = words(of: rule)
        for (index, word) in words.enumerated() where word == "dport" && index > 0 {
            let owner = words[index - 1]
            guard owner == proto || (owner == "th" && words.contains(proto)) else { continue }
            var next = index + 1
            let negated = next < words.count && words[next] == "!="
            if negated { next += 1 }
            guard next < words.count else { continue }
            var spec = words[next]
            if spec == "{" {
                guard let close = words[next...].firstIndex(of: "}") else { continue }
                spec = words[next...close].joined(separator: " ")
            }
            if let match = PortMatch(spec, negated: negated), match.covers(port) { return true }
        }
        return false
    }

    /// "all", "tcp" or "udp" when `rule` drops every packet (of that protocol) arriving, whatever
    /// the port: nothing but a verdict, a protocol, an incoming interface and logging.
    static func dropsEverything(_ rule: String) -> String? {
        var words = words(of: rule)
        guard let verdictIndex = words.firstIndex(where: { $0 == "drop" || $0 == "reject" }) else { return nil }
        words = Array(words[..<verdictIndex])
        var proto = "all"
        var index = 0
        while index < words.count {
            let pair = words[index..<min(index + 2, words.count)].joined(separator: " ")
            if ["meta l4proto", "ip protocol", "ip6 nexthdr"].contains(pair), index + 2 < words.count {
                proto = words[index + 2]
                index += 3
            } else if ["iifname", "iif"].contains(words[index]), index + 1 < words.count {
                index += 2
            } else if words[index] == "log" {
                index += 1
                while index < words.count, ["prefix", "level", "flags"].contains(words[index]) { index += 2 }
            } else {
                return nil
            }
        }
        return ["all", "tcp", "udp"].contains(proto) ? proto : nil
    }
}
