import Foundation
@testable import Multipeer
@testable import MultipeerPOSIX
import MultipeerTestSupport
import Testing

/// Identity keys: their fingerprints, the identity derived from them, the verification code,
/// and the file that keeps them. The vectors were computed independently, with Python's
/// `cryptography` and `hashlib`.
@Suite("Identity keys", .timeLimit(.minutes(1)))
struct PeerKeyTests {
    static let alicePEM = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgERERERERERERERER
        ERERERERERERERERERERERERERGhRANCAAQCF+YX8LZEOSgnj5aZnmmiOk8sFSvf
        bWzfZuW4AoLU7RlKfevLl3EtLdo8qFqodlpW9F/HWFmWUvKJfGUwbleU
        -----END PRIVATE KEY-----
        """
    static let bobPEM = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgIiIiIiIiIiIiIiIi
        IiIiIiIiIiIiIiIiIiIiIiIiIiKhRANCAATWWpOXfKo9GwgYUv9Xp55GXxZgV3ME
        uurVBd06SFic81AYXolTct9iIeo6E3VX5HP922dV8FvVB8PFM/zpyRKF
        -----END PRIVATE KEY-----
        """

    @Test("A key's fingerprint is SHA-256 of its public key, and the peer's identity its first 16 bytes")
    func fingerprintVector() throws {
        let alice = try PeerKey(pemRepresentation: Self.alicePEM)
        #expect(alice.fingerprint.description == "76805a63a6980c18075424a13f32772d02d7c71b4965754c1ce84f5841220327")
        #expect(alice.fingerprint.identity == UUID(uuidString: "76805a63-a698-0c18-0754-24a13f32772d"))
        #expect(try alice.peer(displayName: "alice").identity == alice.fingerprint.identity)
        #expect(PeerFingerprint(hex: alice.fingerprint.description) == alice.fingerprint)
        #expect(PeerFingerprint(hex: alice.fingerprint.description.uppercased()) == alice.fingerprint)
        #expect(PeerFingerprint(hex: "76805a63") == nil)
        #expect(PeerFingerprint(hex: String(repeating: "g", count: 64)) == nil)
    }

    @Test("The verification code matches the vector; each side computes the same; every input changes it")
    func verificationCode() throws {
        let alice = try PeerKey(pemRepresentation: Self.alicePEM).fingerprint
        let bob = try PeerKey(pemRepresentation: Self.bobPEM).fingerprint
        let bobNonce = Array(repeating: UInt8(1), count: VerificationCode.nonceBytes)
        let aliceNonce = Array(repeating: UInt8(2), count: VerificationCode.nonceBytes)
        let code = VerificationCode.code(inviter: bob, advertiser: alice, inviterNonce: bobNonce, advertiserNonce: aliceNonce)
        #expect(code == Self.codeVector, "SHA-256 over the label, both keys and both nonces, as PROTOCOL.md says")
        #expect(CodeNonces(inviter: bobNonce, advertiser: aliceNonce, localIsInviter: true).code(local: bob, remote: alice) == code)
        #expect(CodeNonces(inviter: bobNonce, advertiser: aliceNonce, localIsInviter: false).code(local: alice, remote: bob) == code)
        // Another key, or another nonce on either side, gives another code (but for a one-in-a-million chance).
        let mallory = PeerKey.generate().fingerprint
        #expect(VerificationCode.code(inviter: mallory, advertiser: alice, inviterNonce: bobNonce, advertiserNonce: aliceNonce) != code)
        #expect(VerificationCode.code(inviter: bob, advertiser: alice, inviterNonce: VerificationCode.nonce(), advertiserNonce: aliceNonce) != code)
        #expect(VerificationCode.code(inviter: bob, advertiser: alice, inviterNonce: bobNonce, advertiserNonce: VerificationCode.nonce()) != code)
        #expect(VerificationCode.code(inviter: alice, advertiser: bob, inviterNonce: bobNonce, advertiserNonce: aliceNonce) != code, "the roles count")
    }

    /// The code of bob inviting alice with nonces of all 1s (bob) and all 2s (alice).
    static let codeVector = "998 367"

    @Test("A commitment binds the nonce: only that nonce matches it, and it does not show the nonce")
    func commitment() {
        let nonce = VerificationCode.nonce()
        let commitment = VerificationCode.commitment(to: nonce)
        #expect(commitment.count == VerificationCode.nonceBytes && commitment != nonce)
        #expect(VerificationCode.nonce(nonce, matches: commitment))
        #expect(!VerificationCode.nonce(VerificationCode.nonce(), matches: commitment))
        #expect(!VerificationCode.nonce(Array(nonce.prefix(16)), matches: commitment))
        #expect(VerificationCode.nonce() != VerificationCode.nonce(), "fresh each time")
    }

    @Test("A new key is kept readable by its owner only, and later loads return the same key")
    func persists() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = PeerIdentityStore.standard(application: "guessnum", environment: ["XDG_CONFIG_HOME": directory.path])
        #expect(store.fileURL.path == directory.path + "/guessnum/peer-identity")
        let first = try store.loadOrCreate()
        #expect(first.replacedIdentity == nil)
        #expect(try store.loadOrCreate().key.fingerprint == first.key.fingerprint)
        #expect(try PeerIdentityStore(fileURL: store.fileURL).loadOrCreate().key.fingerprint == first.key.fingerprint)
        let attributes = try FileManager.default.attributesOfItem(atPath: store.fileURL.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let directoryAttributes = try FileManager.default.attributesOfItem(atPath: store.fileURL.deletingLastPathComponent().path)
        #expect((directoryAttributes[.posixPermissions] as? Int) == 0o700)
        #expect(try String(contentsOf: store.fileURL, encoding: .utf8).hasPrefix("-----BEGIN PRIVATE KEY-----"))
    }

    @Test("Without XDG_CONFIG_HOME the key lives under ~/.config")
    func homeFallback() {
        let store = PeerIdentityStore.standard(application: "guessnum", environment: ["HOME": "/home/zoe"])
        #expect(store.fileURL.path == "/home/zoe/.config/guessnum/peer-identity")
    }

    @Test("An identity of an earlier release (a UUID) is replaced by a key, once, and said so")
    func migratesUUID() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("peer-identity")
        let old = UUID()
        try Data((old.uuidString + "\n").utf8).write(to: file)
        let migrated = try PeerIdentityStore(fileURL: file).loadOrCreate()
        #expect(migrated.replacedIdentity == old)
        let again = try PeerIdentityStore(fileURL: file).loadOrCreate()
        #expect(again.replacedIdentity == nil)
        #expect(again.key.fingerprint == migrated.key.fingerprint)
    }

    @Test("A damaged key file is an error naming the file and what to do, and the file is left alone")
    func damaged() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("peer-identity")
        let damaged = String(Self.alicePEM.dropLast(40))
        try Data(damaged.utf8).write(to: file)
        do {
            _ = try PeerIdentityStore(fileURL: file).loadOrCreate()
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .identityStorage)
            #expect(error.message.contains(file.path) && error.message.contains("move it away"), "\(error.message)")
        }
        #expect(try String(contentsOf: file, encoding: .utf8) == damaged, "never silently replaced")
    }

    func temporaryDirectory() -> URL {
        Scratch.path("guessnum-test")
    }
}
