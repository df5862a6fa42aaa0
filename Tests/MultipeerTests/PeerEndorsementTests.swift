import Multipeer
import Testing

/// An owner key's endorsement of another key: it proves the owner for that key only, reads back
/// from its bytes, and damaged bytes read as nothing.
@Suite("Peer endorsements", .timeLimit(.minutes(1)))
struct PeerEndorsementTests {
    @Test("An endorsement names its owner for the key it endorses, and for no other key")
    func ownerForItsKeyOnly() throws {
        let owner = PeerKey.generate()
        let program = PeerKey.generate()
        let endorsement = try PeerEndorsement(endorsing: program.fingerprint, by: owner)
        #expect(endorsement.owner(ifEndorsing: program.fingerprint) == owner.fingerprint)
        #expect(endorsement.ownerIdentity == owner.fingerprint.identity)
        #expect(endorsement.owner(ifEndorsing: PeerKey.generate().fingerprint) == nil)
        #expect(endorsement.owner(ifEndorsing: owner.fingerprint) == nil)
    }

    @Test("Its bytes read back as the same endorsement; other bytes read as none")
    func bytes() throws {
        let program = PeerKey.generate()
        let endorsement = try PeerEndorsement(endorsing: program.fingerprint, by: PeerKey.generate())
        let bytes = endorsement.bytes
        #expect(bytes.count == PeerEndorsement.byteCount && bytes.first == 1)
        #expect(PeerEndorsement(bytes: bytes) == endorsement)
        #expect(PeerEndorsement(bytes: bytes.dropLast()) == nil)
        #expect(PeerEndorsement(bytes: bytes + [0]) == nil)
        var otherVersion = bytes
        otherVersion[0] = 2
        #expect(PeerEndorsement(bytes: otherVersion) == nil)
        var notAPoint = bytes
        notAPoint[1] = 0x07
        #expect(PeerEndorsement(bytes: notAPoint) == nil)
        // A signature changed in one bit still reads, and proves no owner.
        var forged = bytes
        forged[bytes.count - 1] ^= 1
        #expect(PeerEndorsement(bytes: forged)?.owner(ifEndorsing: program.fingerprint) == nil)
    }

    @Test("What a peer proved: its holder is the owner that endorsed it, else its own key")
    func proofHolder() {
        let key = PeerKey.generate().fingerprint
        let owner = PeerKey.generate().fingerprint
        #expect(PeerProof(key: key).holder == key)
        #expect(PeerProof(key: key, owner: owner).holder == owner)
    }
}
