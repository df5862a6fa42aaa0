/// Reads `iptables-save` (and `ip6tables-save`) output of the legacy iptables, whose rules
/// `nft list ruleset` does not show: the `filter` table's `INPUT` chain policy and the `DROP`
/// or `REJECT` rules on UDP 5353 or the game's TCP port, as ``NftablesRuleset`` does for nftables.
enum IptablesSave {
    static func findings(in text: String, port: Int?, tool: String = "iptables") -> [FirewallFinding] {
        var table = ""
        var findings: [FirewallFinding] = []
        var accepted: [String: [[String]]] = [:]
        var inputPolicyDrop = false
        func allow(_ chain: String, _ proto: String, _ port: String) -> String {
            "sudo \(tool) -I \(chain) -p \(proto) --dport \(port) -j ACCEPT"
        }
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("*") { table = String(line.dropFirst()); continue }
            guard table == "filter" else { continue }
            let words = line.split(separator: " ").map(String.init)
            if line.hasPrefix(":INPUT "), words.count >= 2, words[1] == "DROP" { inputPolicyDrop = true }
            guard words.first == "-A", words.count >= 2 else { continue }
            let chain = words[1]
            let location = "\(tool), chain \(chain)"
            let target = value(after: "-j", in: words)
            if target == "ACCEPT" { accepted[chain, default: []].append(words); continue }
            guard target == "DROP" || target == "REJECT" else { continue }
            let earlier = accepted[chain] ?? []
            let rule = words.dropFirst(2).joined(separator: " ")
            if covers(words, "udp", 5353), !earlier.contains(where: { covers($0, "udp", 5353) }) {
                findings.append(FirewallFinding(blocks: .multicastDNS, location: location, rule: rule, allowCommand: allow(chain, "udp", "5353")))
            } else if let port, covers(words, "tcp", port), !earlier.contains(where: { covers($0, "tcp", port) }) {
                findings.append(FirewallFinding(blocks: .gamePort, location: location, rule: rule, allowCommand: allow(chain, "tcp", String(port))))
            } else if chain == "INPUT", dropsEverything(words) {
                let proto = value(after: "-p", in: words) ?? "all"
                if proto != "tcp", !earlier.contains(where: { covers($0, "udp", 5353) }) {
                    findings.append(FirewallFinding(blocks: .multicastDNS, location: location, rule: rule, allowCommand: allow(chain, "udp", "5353")))
                }
                if proto != "udp", port.map({ p in !earlier.contains(where: { covers($0, "tcp", p) }) }) ?? true {
                    findings.append(FirewallFinding(blocks: port == nil ? .unknownPort : .gamePort, location: location, rule: rule, allowCommand: allow(chain, "tcp", port.map(String.init) ?? "PORT")))
                }
            }
        }
        if inputPolicyDrop {
            let all = accepted.values.flatMap { $0 }
            let location = "\(tool), chain INPUT"
            if !all.contains(where: { covers($0, "udp", 5353) }) {
                findings.append(FirewallFinding(blocks: .multicastDNS, location: location, rule: "policy DROP", allowCommand: allow("INPUT", "udp", "5353")))
            }
            if let port {
                if !all.contains(where: { covers($0, "tcp", port) }) {
                    findings.append(FirewallFinding(blocks: .gamePort, location: location, rule: "policy DROP", allowCommand: allow("INPUT", "tcp", String(port))))
                }
            } else {
                findings.append(FirewallFinding(blocks: .unknownPort, location: location, rule: "policy DROP", allowCommand: allow("INPUT", "tcp", "PORT")))
            }
        }
        return findings
    }

    /// Whether the rule matches nothing but a protocol and an incoming interface.
    private static func dropsEverything(_ words: [String]) -> Bool {
        var index = 2
        while index + 1 < words.count {
            guard ["-p", "-i", "-j"].contains(words[index]) else { return false }
            if words[index] == "-j" { return true }  // what follows is the target's own options
            index += 2
        }
        return false
    }

    private static func value(after key: String, in words: [String]) -> String? {
        guard let index = words.firstIndex(of: key), index + 1 < words.count else { return nil }
        return words[index + 1]
    }

    /// Whether the rule's words match `proto` packets to `port` (`--dport 4000`, `--dport 4000:4010`,
    /// `--dports 53,5353`).
    static func covers(_ words: [String], _ proto: String, _ port: Int) -> Bool {
        guard value(after: "-p", in: words) == proto else { return false }
        for key in ["--dport", "--dports"] {
            guard let index = words.firstIndex(of: key), index + 1 < words.count else { continue }
            let negated = index > 0 && words[index - 1] == "!"
            if let match = PortMatch(words[index + 1], negated: negated, rangeSeparator: ":"), match.covers(port) { return true }
        }
        return false
    }
}
