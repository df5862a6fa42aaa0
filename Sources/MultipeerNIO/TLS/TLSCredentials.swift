import Crypto
import Foundation
import Multipeer
import NIOSSL
import SwiftASN1
import X509

/// What one side brings to TLS: its identity key and a self-signed certificate made from it,
/// and the two contexts (accepting and connecting) that present them. TLS 1.3 only; both sides
/// present a certificate, and each checks the other's with ``PeerCertificateCheck`` instead of
/// a certificate authority: the key is the identity, and the session compares it with the
/// identity the peer claims.
public struct TLSCredentials: Sendable {
    /// The identity key.
    public let key: PeerKey
    /// The identity key's fingerprint, worked out once: every connection's
    /// ``PeerCertificateCheck`` holds it (one SHA-256 and one array for all, not per connection).
    let fingerprint: PeerFingerprint
    /// The context for accepted connections: TLS 1.3, presents the certificate, asks for the
    /// client's.
    public let serverContext: NIOSSLContext
    /// The context for connections this side makes: TLS 1.3, presents the certificate.
    public let clientContext: NIOSSLContext

    /// How long a certificate made here is valid (a new one is made every launch).
    static let certificateLifetime: TimeInterval = 366 * 24 * 3600

    /// Credentials for `key`, with a certificate valid from an hour ago for a year that carries
    /// `endorsement` (an owner's endorsement of `key`, see ``Multipeer/PeerEndorsement``) when
    /// there is one.
    /// - Throws: ``Multipeer/MultipeerError/Code/identityStorage`` when the certificate cannot
    ///   be made (which would be a bug).
    public init(key: PeerKey, endorsement: PeerEndorsement? = nil, now: Date = Date()) throws(MultipeerError) {
        self.key = key
        fingerprint = key.fingerprint
        do {
            let certificate = try Self.selfSignedCertificate(for: key, endorsement: endorsement, now: now)
            let privateKey = try NIOSSLPrivateKey(bytes: Array(key.privateKey.derRepresentation), format: .der)
            var server = TLSConfiguration.makeServerConfiguration(certificateChain: [.certificate(certificate)], privateKey: .privateKey(privateKey))
            var client = TLSConfiguration.makeClientConfiguration()
            client.certificateChain = [.certificate(certificate)]
            client.privateKey = .privateKey(privateKey)
            Self.restrict(&server)
            Self.restrict(&client)
            serverContext = try NIOSSLContext(configuration: server)
            clientContext = try NIOSSLContext(configuration: client)
        } catch {
            throw MultipeerError(.identityStorage, "Could not make a TLS certificate from the identity key (\(error)).", underlying: error)
        }
    }

    /// TLS 1.3 only; the peer's certificate is checked by ``PeerCertificateCheck``, since there
    /// is no authority and no host name. No trust roots either: the system's certificate
    /// authorities vouch for nothing here, and loading them made BoringSSL search and parse the
    /// system's trust store during every handshake (a fifth of the host's time in a join storm).
    private static func restrict(_ configuration: inout TLSConfiguration) {
        configuration.minimumTLSVersion = .tlsv13
        configuration.maximumTLSVersion = .tlsv13
        configuration.certificateVerification = .noHostnameVerification
        configuration.trustRoots = .certificates([])
    }

    /// A self-signed X.509 certificate for `key`, carrying `endorsement` if any, in the form
    /// NIOSSL reads.
    static func selfSignedCertificate(for key: PeerKey, endorsement: PeerEndorsement? = nil, now: Date) throws -> NIOSSLCertificate {
        let name = try DistinguishedName { CommonName("guessnum peer \(key.fingerprint.description.prefix(16))") }
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(key.privateKey.publicKey),
            notValidBefore: now.addingTimeInterval(-3600),
            notValidAfter: now.addingTimeInterval(certificateLifetime),
            issuer: name,
            subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                if let endorsement { try EndorsementExtension.make(endorsement) }
            },
            issuerPrivateKey: Certificate.PrivateKey(key.privateKey)
        )
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return try NIOSSLCertificate(bytes: serializer.serializedBytes, format: .der)
    }
}
