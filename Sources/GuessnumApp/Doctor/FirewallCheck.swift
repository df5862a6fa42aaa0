import Foundation

/// Check 6: whether a firewall rule keeps mDNS (UDP 5353) or the game's TCP port out. Reading
/// the rules needs root; without it the check is skipped and says how to run it.
enum FirewallCheck {
    static let id = "firewall"
    static let title = "firewall"
    private static let directories = ["/usr/sbin", "/sbin", "/usr/bin", "/bin"]

    static func run(_ system: DoctorSystem, port: Int?) async -> DoctorCheck {
        let needsRoot = "needs root: run `sudo \(system.programCommand) doctor\(port.map { " --port \($0)" } ?? "")`"
        guard system.isRoot else { return DoctorCheck(id: id, title: title, status: .skipped, finding: needsRoot) }
        func find(_ tool: String) -> String? { directories.map { "\($0)/\(tool)" }.first(where: system.fileExists) }
        var findings: [FirewallFinding] = []
        var notes: [String] = []
        var readAny = false
        let nft = find("nft")
        if let nft {
            let outcome = await system.runProgram(nft, ["list", "ruleset"])
            if outcome.status == 0 {
                readAny = true
                findings += NftablesRuleset.findings(in: outcome.output, port: port)
            } else if outcome.error.contains("Operation not permitted") || outcome.error.contains("Permission denied") {
                return DoctorCheck(id: id, title: title, status: .skipped, finding: needsRoot)
            } else {
                notes.append("nft list ruleset failed (\(reason(outcome)))")
            }
        }
        // iptables-nft keeps its rules in nftables, which nft shows; only the legacy ones are apart.
        let legacy = [("iptables", "iptables-legacy-save"), ("ip6tables", "ip6tables-legacy-save")]
        let plain = [("iptables", "iptables-save"), ("ip6tables", "ip6tables-save")]
        for (tool, save) in nft == nil ? plain : legacy {
            guard let path = find(save) else { continue }
            let outcome = await system.runProgram(path, [])
            if outcome.status == 0 {
                readAny = true
                findings += IptablesSave.findings(in: outcome.output, port: port, tool: tool)
            } else {
                notes.append("\(save) failed (\(reason(outcome)))")
            }
        }
        guard readAny else {
            let finding = notes.isEmpty ? "neither nft nor iptables-save is installed, so no firewall rules could be read" : notes.joined(separator: "; ")
            return DoctorCheck(id: id, title: title, status: .skipped, finding: finding)
        }
        return check(findings, port: port, notes: notes)
    }

    /// The check's line for what was found.
    static func check(_ findings: [FirewallFinding], port: Int?, notes: [String] = []) -> DoctorCheck {
        let items = findings.map(\.text)
        let extra = notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))"
        guard !findings.isEmpty else {
            let finding = port.map { "no rule blocks mDNS (UDP 5353) or TCP port \($0)" }
                ?? "no rule blocks mDNS (UDP 5353) or drops all incoming TCP; rules on the game's own TCP port were not looked for (give it with --port N)"
            return DoctorCheck(id: id, title: title, status: .ok, finding: finding + extra)
        }
        let described = findings.map { finding in
            switch finding.blocks {
            case .multicastDNS: "\(finding.text) (blocks mDNS, UDP 5353)"
            case .gamePort: "\(finding.text) (blocks TCP port \(port.map(String.init) ?? "of the game"))"
            case .unknownPort: "\(finding.text) (blocks incoming TCP unless a rule accepts the game's port)"
            }
        }
        let commands = findings.map(\.allowCommand).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let onlyUnknown = findings.allSatisfy { $0.blocks == .unknownPort }
        var fix = "allow \(findings.count == 1 ? "it" : "them"): \(commands.joined(separator: "; ")) (or ask whoever manages this machine's firewall)"
        if onlyUnknown { fix = "host with a fixed port (guessnum host --port N) and " + fix.replacingOccurrences(of: "PORT", with: "N") }
        return DoctorCheck(
            id: id, title: title, status: onlyUnknown ? .warning : .failed, finding: described.joined(separator: "; ") + extra, fix: fix, items: items)
    }

    private static func reason(_ outcome: ExternalCommand.Outcome) -> String {
        if outcome.timedOut { return "no answer within 5 s" }
        let error = outcome.error.trimmingCharacters(in: .whitespacesAndNewlines)
        return error.isEmpty ? "exit status \(outcome.status.map(String.init) ?? "unknown")" : error
    }
}
