import Foundation
@testable import GuessnumGame
import MultipeerTestSupport
import Testing

/// The password proof of private games, against vectors computed independently (Python's
/// `hashlib.scrypt` and `hmac`, with the construction PROTOCOL.md §10 gives).
@Suite("Password proofs", .timeLimit(.minutes(2)))
struct PasswordProofTests {
    static let host = UUID(uuidString: "00112233-4455-6677-8899-AABBCCDDEEFF")!
    static let guest = UUID(uuidString: "F0E1D2C3-B4A5-9687-7869-5A4B3C2D1E0F")!

    func hex(_ data: some Sequence<UInt8>) -> String { data.map { String(format: "%02x", $0) }.joined() }

    @Test("The key and proof match the fixed vector")
    func fixedVector() async throws {
        let key = await PasswordProof.key(for: try GamePassword("correct horse battery staple"), host: Self.host)
        #expect(key.key.withUnsafeBytes { hex($0) } == "3b91a3190e6824ad233a480bdff99d4811d081aa9afc095a32dbe878120947ad")
        let proof = PasswordProof.proof(key, guest: Self.guest)
        #expect(hex(proof) == "18820382794c4bee3b0e40c2da6d796f831c8f500f75f23298342ecf48a533f7")
        #expect(PasswordProof.isValid(proof, key: key, guest: Self.guest))
    }

    @Test("A proof is worth nothing for another guest, at another host, or with another password")
    func boundToBothIdentities() async throws {
        let password = try GamePassword("correct horse battery staple")
        let key = await PasswordProof.key(for: password, host: Self.host, cost: .cheap)
        let proof = PasswordProof.proof(key, guest: Self.guest)
        #expect(!PasswordProof.isValid(proof, key: key, guest: UUID()))
        let otherHost = await PasswordProof.key(for: password, host: UUID(), cost: .cheap)
        #expect(!PasswordProof.isValid(proof, key: otherHost, guest: Self.guest))
        let otherPassword = await PasswordProof.key(for: try GamePassword("correct horse battery stapler"), host: Self.host, cost: .cheap)
        #expect(!PasswordProof.isValid(proof, key: otherPassword, guest: Self.guest))
        var flipped = proof
        flipped[0] ^= 1
        #expect(!PasswordProof.isValid(flipped, key: key, guest: Self.guest))
        #expect(!PasswordProof.isValid(proof.prefix(16), key: key, guest: Self.guest))
    }

    @Test("Accents typed precomposed or combining make the same password (the fixed vector of “café”)")
    func normalized() async throws {
        let composed = await PasswordProof.key(for: try GamePassword("caf\u{E9}"), host: Self.host)
        #expect(hex(PasswordProof.proof(composed, guest: Self.guest)) == "af18bfa92cf13ac163c373a85c4b1d4e800cff0bd3652338c09483f9e9b99d51")
        // The same password either way: compared at a cheap cost (the vector above is the standard one).
        let cheapComposed = await PasswordProof.key(for: try GamePassword("caf\u{E9}"), host: Self.host, cost: .cheap)
        let cheapCombining = await PasswordProof.key(for: try GamePassword("cafe\u{301}"), host: Self.host, cost: .cheap)
        #expect(PasswordProof.proof(cheapCombining, guest: Self.guest) == PasswordProof.proof(cheapComposed, guest: Self.guest))
    }

    @Test("An empty or overlong password is refused with a sentence, and a password never prints")
    func passwordRules() throws {
        #expect(throws: GameError.emptyPassword) { try GamePassword("") }
        #expect(throws: GameError.passwordTooLong(limit: 1_024)) { try GamePassword(String(repeating: "é", count: 600)) }
        let password = try GamePassword("hunter2")
        #expect("\(password)" == "(password hidden)" && String(reflecting: password) == "(password hidden)")
    }

    @Test("The join request's context carries the proof as hex, and anything unreadable as no proof")
    func joinRequestContext() {
        let proof = Data((0..<32).map { UInt8($0) })
        let context = JoinRequest(passwordProof: proof).context
        #expect(JoinRequest(context: context).passwordProof == proof)
        #expect(String(decoding: context, as: UTF8.self) == #"{"passwordProof":"\#(hex(proof))"}"#)
        #expect(JoinRequest().context.isEmpty)
        #expect(JoinRequest(context: Data()).passwordProof == nil)
        #expect(JoinRequest(context: Data("not json".utf8)).passwordProof == nil)
        #expect(JoinRequest(context: Data(#"{"passwordProof":"zz"}"#.utf8)).passwordProof == nil)
        #expect(JoinRequest(context: Data(#"{"passwordProof":"0a0b","later":[1,2]}"#.utf8)).passwordProof == Data([10, 11]))
    }
}

/// Deriving a key never needs Swift's cooperative pool: at the standard cost it takes about a
/// second of a core, which on the pool would stop every other task of the program meanwhile.
@Suite("Password keys off the pool", .timeLimit(.minutes(2)))
struct PasswordKeyThreadTests {
    @Test("While as many derivations as the pool has threads are under way, a task on the pool still runs")
    func derivationsLeaveThePoolFree() async throws {
        let password = try GamePassword("correct horse battery staple")
        let calls = ProcessInfo.processInfo.activeProcessorCount
        let hosts = (0..<calls).map { _ in UUID() }
        // Each derivation blocks until released, as a long one would: the cost does not matter
        // here, where the work runs does.
        let (poolStayedFree, keys) = await PoolFreedom.check(calls: calls) { index, block in
            await PasswordProof.key(for: password, host: hosts[index], cost: .cheap) { password, host, cost in
                block()
                return PasswordProof.derive(password, host: host, cost: cost)
            }
        }
        #expect(poolStayedFree, "the derivations held the pool")
        #expect(keys.map(\.host) == hosts)
    }
}
