import Crypto
import Foundation
import Multipeer
import NIOCore
import NIOSSL
import Synchronization
import X509

/// Checks the certificate a peer presents in the TLS handshake and keeps what it proves.
///
/// A peer's certificate is good when it is one self-signed X.509 certificate, valid now, whose
/// P-256 key signed it; the TLS handshake then proves the peer holds that key. What is kept is
/// the key's ``Multipeer/PeerFingerprint`` (the session compares its identity with the one the
/// peer claims in HELLO or ACCEPT) with the owner whose endorsement of it the certificate
/// carries, if any (``EndorsementExtension``), or why the certificate was refused, for the error.
final class PeerCertificateCheck: Sendable {
    /// The fingerprint of the key this side presents.
    let localKey: PeerFingerprint
    private let outcome = Mutex<Result<PeerProof, MultipeerError>?>(nil)

    init(localKey: PeerFingerprint) {
        self.localKey = localKey
    }

    /// What the peer proved, once the handshake has checked the certificate.
    var proof: PeerProof? {
        outcome.withLock { if case .success(let proof)? = $0 { proof } else { nil } }
    }

    /// Why the certificate was refused, if it was.
    var refusal: MultipeerError? {
        outcome.withLock { if case .failure(let error)? = $0 { error } else { nil } }
    }

    /// NIOSSL's verification callback.
    func verify(_ chain: [NIOSSLCertificate], promise: EventLoopPromise<NIOSSLVerificationResult>) {
        let result = Self.check(chain, now: Date())
        outcome.withLock { $0 = result }
        switch result {
        case .success: promise.succeed(.certificateVerified)
        case .failure: promise.succeed(.failed)
        }
    }

    /// What `chain` proves at `now`, or why it proves nothing.
    static func check(_ chain: [NIOSSLCertificate], now: Date) -> Result<PeerProof, MultipeerError> {
        guard chain.count == 1, let leaf = chain.first else {
            return .failure(refused("it presented \(chain.count) certificates instead of one"))
        }
        let certificate: Certificate
        do { certificate = try Certificate(derEncoded: try leaf.toDERBytes()) } catch {
            return .failure(refused("its certificate is malformed"))
        }
        guard certificate.notValidBefore <= now.addingTimeInterval(300) else {
            return .failure(refused("its certificate is not valid yet (check both clocks)"))
        }
        guard now <= certificate.notValidAfter else {
            return .failure(refused("its certificate expired on \(certificate.notValidAfter)"))
        }
        guard let key = P256.Signing.PublicKey(certificate.publicKey) else {
            return .failure(refused("its certificate holds no P-256 key"))
        }
        guard certificate.publicKey.isValidSignature(certificate.signature, for: certificate) else {
            return .failure(refused("its certificate is not signed by its own key"))
        }
        let fingerprint = PeerFingerprint(publicKey: key)
        let owner = EndorsementExtension.endorsement(in: certificate)?.owner(ifEndorsing: fingerprint)
        return .success(PeerProof(key: fingerprint, owner: owner))
    }

    private static func refused(_ reason: String) -> MultipeerError {
        MultipeerError(.peerNotProved, "The peer's identity could not be checked: \(reason).")
    }
}
