@testable import GuessnumApp
import Testing

@Suite("Doctor: reading firewall rules", .timeLimit(.minutes(1)))
struct DoctorFirewallTests {
    /// What `nft list ruleset` prints for the test LAN's firewall (scripts/test-lan firewall … drop).
    static let portDropped = """
        table inet gnlanfw {
        	chain input {
        		type filter hook input priority filter; policy accept;
        		tcp dport 4000 drop
        	}
        }
        """

    @Test("A rule dropping the game's port is named with its table and chain, and how to allow it")
    func ruleOnThePort() {
        let findings = NftablesRuleset.findings(in: Self.portDropped, port: 4000)
        #expect(findings == [
            FirewallFinding(
                blocks: .gamePort, location: "table inet gnlanfw, chain input", rule: "tcp dport 4000 drop",
                allowCommand: "sudo nft insert rule inet gnlanfw input tcp dport 4000 accept")
        ])
        #expect(findings.first?.text == "table inet gnlanfw, chain input: tcp dport 4000 drop")
        #expect(NftablesRuleset.findings(in: Self.portDropped, port: 4001).isEmpty, "a rule on another port")
        #expect(NftablesRuleset.findings(in: Self.portDropped, port: nil).isEmpty, "without --port, a rule on one port is not looked for")
    }

    @Test("A rule on UDP 5353 with a counter, a comment and a handle; a set; a range; rules on other things are left alone")
    func multicastDNSAndUnrelatedRules() {
        let ruleset = """
            table ip filter {
            	set blocked {
            		type ipv4_addr
            		elements = { 10.0.0.1,
            			     10.0.0.2 }
            	}
            	chain INPUT {
            		type filter hook input priority filter; policy accept;
            		ct state invalid drop
            		ip saddr @blocked drop
            		tcp dport 22 drop
            		udp dport 5353 counter packets 12 bytes 900 drop comment "no mdns, no drop of 4000" # handle 7
            		tcp dport { 80, 3000-3999 } reject with tcp reset
            	}
            	chain OUTPUT {
            		type filter hook output priority filter; policy accept;
            		tcp dport 4000 drop
            	}
            }
            table bridge lan {
            	chain forward {
            		type filter hook forward priority 0; policy accept;
            		udp dport 5353 drop
            	}
            }
            """
        let findings = NftablesRuleset.findings(in: ruleset, port: 4000)
        #expect(findings.map(\.text) == [
            "table ip filter, chain INPUT: udp dport 5353 counter packets 12 bytes 900 drop comment \"no mdns, no drop of 4000\""
        ])
        #expect(findings.first?.blocks == .multicastDNS)
        #expect(findings.first?.allowCommand == "sudo nft insert rule ip filter INPUT udp dport 5353 accept")
        #expect(NftablesRuleset.findings(in: ruleset, port: 3500).map(\.rule).last == "tcp dport { 80, 3000-3999 } reject with tcp reset")
        #expect(NftablesRuleset.findings(in: ruleset, port: 22).map(\.rule).contains("tcp dport 22 drop"))
    }

    @Test("An input policy of drop: mDNS and the port are blocked unless the table accepts them; without --port, a warning")
    func policyDrop() {
        let ruleset = """
            table inet filter {
            	chain input {
            		type filter hook input priority filter; policy drop;
            		ct state established,related accept
            		iifname "lo" accept
            		udp dport mdns accept
            		jump services
            	}
            	chain services {
            		tcp dport { 22, 4000 } accept
            	}
            }
            """
        #expect(NftablesRuleset.findings(in: ruleset, port: 4000).isEmpty)
        let other = NftablesRuleset.findings(in: ruleset, port: 5000)
        #expect(other.map(\.text) == ["table inet filter, chain input: policy drop"])
        #expect(other.first?.allowCommand == "sudo nft insert rule inet filter input tcp dport 5000 accept")
        let unknown = NftablesRuleset.findings(in: ruleset, port: nil)
        #expect(unknown.map(\.blocks) == [.unknownPort])
        let check = FirewallCheck.check(unknown, port: nil)
        #expect(check.status == .warning)
        #expect(check.fix?.contains("guessnum host --port N") == true)
        #expect(check.fix?.contains("tcp dport N accept") == true)
        let strict = NftablesRuleset.findings(in: "table inet f {\n chain input {\n type filter hook input priority 0; policy drop;\n }\n}\n", port: 4000)
        #expect(strict.map(\.blocks) == [.multicastDNS, .gamePort])
    }

    @Test("A rule that drops everything blocks mDNS and TCP; an accept before a drop lets the port through")
    func dropEverythingAndOrder() {
        let ruleset = """
            table inet fw {
            	chain input {
            		type filter hook input priority 0; policy accept;
            		tcp dport 4000 accept
            		meta l4proto tcp counter packets 0 bytes 0 drop
            		iifname "eth0" drop
            	}
            }
            """
        let findings = NftablesRuleset.findings(in: ruleset, port: 4000)
        #expect(findings.map(\.blocks) == [.multicastDNS], "\(findings)")
        #expect(findings.first?.rule == "iifname \"eth0\" drop")
        #expect(NftablesRuleset.findings(in: ruleset, port: 4001).map(\.blocks) == [.gamePort, .multicastDNS, .gamePort], "each rule that drops the port is named")
        #expect(NftablesRuleset.findings(in: "not a ruleset {{{ }", port: 4000).isEmpty, "odd input")
        #expect(NftablesRuleset.findings(in: "", port: nil).isEmpty)
    }

    @Test("iptables-save: DROP and REJECT rules on the port or 5353, a DROP policy, multiport and ranges")
    func iptables() {
        let saved = """
            # Generated by iptables-save v1.8.9 (legacy)
            *nat
            :PREROUTING ACCEPT [0:0]
            -A PREROUTING -p tcp -m tcp --dport 4000 -j DROP
            COMMIT
            *filter
            :INPUT ACCEPT [0:0]
            :FORWARD DROP [0:0]
            -A INPUT -m conntrack --ctstate INVALID -j DROP
            -A INPUT -p tcp -m tcp --dport 3990:4010 -j REJECT --reject-with icmp-port-unreachable
            -A INPUT -p udp -m multiport --dports 53,5353 -j DROP
            -A INPUT -p tcp -m tcp --dport 22 -j DROP
            COMMIT
            """
        let findings = IptablesSave.findings(in: saved, port: 4000)
        #expect(findings.map(\.text) == [
            "iptables, chain INPUT: -p tcp -m tcp --dport 3990:4010 -j REJECT --reject-with icmp-port-unreachable",
            "iptables, chain INPUT: -p udp -m multiport --dports 53,5353 -j DROP",
        ])
        #expect(findings.first?.allowCommand == "sudo iptables -I INPUT -p tcp --dport 4000 -j ACCEPT")
        let policy = IptablesSave.findings(in: "*filter\n:INPUT DROP [0:0]\n-A INPUT -p udp --dport 5353 -j ACCEPT\nCOMMIT\n", port: nil, tool: "ip6tables")
        #expect(policy.map(\.text) == ["ip6tables, chain INPUT: policy DROP"])
        #expect(policy.map(\.blocks) == [.unknownPort])
    }

    @Test("The check's line names each rule, what it blocks and the commands that allow it")
    func checkLine() {
        let findings = NftablesRuleset.findings(in: Self.portDropped, port: 4000)
        let check = FirewallCheck.check(findings, port: 4000)
        #expect(check.status == .failed)
        #expect(check.finding == "table inet gnlanfw, chain input: tcp dport 4000 drop (blocks TCP port 4000)")
        #expect(check.fix == "allow it: sudo nft insert rule inet gnlanfw input tcp dport 4000 accept (or ask whoever manages this machine's firewall)")
        #expect(FirewallCheck.check([], port: 4000).finding == "no rule blocks mDNS (UDP 5353) or TCP port 4000")
    }
}
