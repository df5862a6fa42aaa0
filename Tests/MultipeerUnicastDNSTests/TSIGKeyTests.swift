import MultipeerUnicastDNS
import Testing

@Suite("TSIG keys as administrators hand them out", .timeLimit(.minutes(1)))
struct TSIGKeyTests {
    let secret = "c2VjcmV0IHNlY3JldCBzZWNyZXQgc2VjcmV0IDMyYg=="

    @Test("nsupdate's -y form, with and without the algorithm; BIND's key clause; Knot's keymgr lines")
    func forms() throws {
        let expected = try TSIGKey(name: DNSName("guessnum-hosts."), algorithm: .hmacSHA256, secret: secret)
        #expect(try TSIGKey(parsing: "hmac-sha256:guessnum-hosts:\(secret)") == expected)
        #expect(try TSIGKey(parsing: "guessnum-hosts.:\(secret)") == expected)
        #expect(try TSIGKey(parsing: "key \"guessnum-hosts\" {\n\talgorithm hmac-sha256;\n\tsecret \"\(secret)\";\n};\n") == expected)
        #expect(try TSIGKey(parsing: "# hmac-sha512:guessnum-hosts:...\nkey:\n  - id: guessnum-hosts\n    algorithm: hmac-sha512\n    secret: \(secret)\n").algorithm == .hmacSHA512)
    }

    @Test("A secret that is not base64, an unknown algorithm, or text of no known form is a sentence")
    func malformed() {
        for text in ["hmac-sha256:guessnum-hosts:not base64!", "hmac-md4:guessnum-hosts:\(secret)", "just-a-name", "key \"k\" { algorithm hmac-sha256; };"] {
            #expect(throws: DNSError.self, "\(text)") { try TSIGKey(parsing: text) }
        }
    }

    @Test("Names are written as zone files escape them: spaces, dots and non-ASCII bytes")
    func presentation() {
        #expect(DNSName(labels: ["Zoë's game. (2)", "_guessnum", "_tcp", "games", "test"]).presentation == #"Zo\195\171's\032game\.\032\(2\)._guessnum._tcp.games.test."#)
        #expect(DNSName("games.test").prepending("_tcp").description == "_tcp.games.test.")
        #expect(DNSName("a.games.test.").isWithin(DNSName("Games.Test.")))
    }
}
