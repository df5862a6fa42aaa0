import Foundation
import GuessnumGame
import Testing

@Suite("Commitments", .timeLimit(.minutes(2)))
struct CommitmentTests {
    let salt = Salt(bytes: Array(0..<32))!

    @Test("The digest is SHA-256 of the salt followed by the secret as big-endian Int64 (known answers)")
    func knownAnswers() {
        #expect(Commitment(secret: 42, salt: salt).hex == "79513579350efb53b172672fa2478769a02f7b595f13be455a85140eba3b7951")
        #expect(Commitment(secret: -50, salt: salt).hex == "28f59229cec04bc0bc631e2940d0914ef0d32f76284769da4e06b2111cb6b7c1")
        #expect(Commitment.committedBytes(secret: 258, salt: salt).suffix(8) == [0, 0, 0, 0, 0, 0, 1, 2])
        #expect(Commitment.committedBytes(secret: 258, salt: salt).count == 40)
    }

    @Test("An honest reveal verifies")
    func honest() {
        let salt = Salt.random()
        let commitment = Commitment(secret: 42, salt: salt)
        #expect(commitment.verify(secret: 42, salt: salt))
    }

    @Test("A tampered secret is detected", arguments: [Int64(41), 43, -42, 0, .max])
    func tamperedSecret(secret: Int64) {
        let salt = Salt.random()
        #expect(!Commitment(secret: 42, salt: salt).verify(secret: secret, salt: salt))
    }

    @Test("A tampered salt is detected, whichever byte changed", arguments: [0, 13, 31])
    func tamperedSalt(index: Int) {
        let salt = Salt.random()
        var bytes = salt.bytes
        bytes[index] ^= 0x01
        #expect(!Commitment(secret: 42, salt: salt).verify(secret: 42, salt: Salt(bytes: bytes)!))
    }

    @Test("Salts are fresh each time and commitments hide equal secrets behind different digests")
    func freshSalts() {
        let first = Salt.random()
        let second = Salt.random()
        #expect(first != second)
        #expect(Commitment(secret: 42, salt: first) != Commitment(secret: 42, salt: second))
    }

    @Test("Hex text round-trips; malformed hex is refused")
    func hex() throws {
        let commitment = Commitment(secret: 42, salt: salt)
        #expect(Commitment(hex: commitment.hex) == commitment)
        #expect(Commitment(hex: commitment.hex.uppercased()) == commitment)
        #expect(Commitment(hex: "abc") == nil)
        #expect(Commitment(hex: String(repeating: "zz", count: 32)) == nil)
        #expect(Salt(hex: salt.hex) == salt)
        #expect(Salt(hex: "00") == nil)
        #expect(Salt(bytes: [1, 2, 3]) == nil)
        #expect(String(decoding: try jsonEncoder().encode(commitment), as: UTF8.self) == "\"\(commitment.hex)\"")
        #expect(try roundTrip(salt) == salt)
        #expect(throws: (any Error).self) { try jsonDecoder().decode(Salt.self, from: Data(#""0011""#.utf8)) }
    }
}

@Suite("Auditing a round", .timeLimit(.minutes(2)))
struct RoundAuditTests {
    let bob = PlayerRef(id: UUID(), name: "bob")
    let salt = Salt.random()

    func reveal(secret: Int64 = 42, salt: Salt? = nil, commitment: Commitment? = nil, range: GuessRange = .standard) -> RoundWon {
        RoundWon(
            sequence: 9, round: 1, range: range, commitment: commitment ?? Commitment(secret: 42, salt: self.salt), winner: bob,
            secret: secret, salt: salt ?? self.salt, winningGuesses: 3, totalGuesses: 3)
    }

    func audit(_ verdicts: [(Int64, Verdict)] = []) -> RoundAudit {
        var audit = RoundAudit(round: 1, range: .standard, commitment: Commitment(secret: 42, salt: salt))
        for (guess, verdict) in verdicts { audit.observe(Judgement(player: bob, guess: guess, verdict: verdict)) }
        return audit
    }

    @Test("An honest round, with every verdict consistent, passes")
    func honest() {
        let check = audit([(10, .tooLow), (80, .tooHigh), (41, .tooLow), (43, .tooHigh), (0, .outOfRange(.standard)), (42, .correct), (50, .roundOver)])
            .check(reveal())
        #expect(check.isHonest, "\(check)")
        #expect(check.description == "round 1: the host was honest")
    }

    @Test("A revealed secret other than the committed one is caught")
    func tamperedSecret() {
        let check = audit().check(reveal(secret: 43))
        #expect(!check.isHonest)
        #expect(check.problems.contains { $0.contains("do not match the commitment") })
    }

    @Test("A revealed salt other than the committed one is caught")
    func tamperedSalt() {
        #expect(!audit().check(reveal(salt: Salt.random())).isHonest)
    }

    @Test("A reveal that swaps in a new commitment is caught")
    func swappedCommitment() {
        let otherSalt = Salt.random()
        let check = audit().check(reveal(secret: 7, salt: otherSalt, commitment: Commitment(secret: 7, salt: otherSalt)))
        #expect(check.problems.contains { $0.contains("another commitment") })
    }

    @Test("A verdict that contradicts the secret is caught even when the commitment holds", arguments: [
        (Int64(50), Verdict.tooLow, "called too low"),
        (30, .tooHigh, "called too high"),
        (42, .tooHigh, "called too high"),
        (17, .correct, "called correct"),
        (60, .outOfRange(.standard), "called out of range"),
    ])
    func lyingVerdicts(guess: Int64, verdict: Verdict, problem: String) {
        let check = audit([(guess, verdict)]).check(reveal())
        #expect(!check.isHonest)
        #expect(check.problems.contains { $0.contains(problem) && $0.contains("bob") }, "\(check.problems)")
    }
}
