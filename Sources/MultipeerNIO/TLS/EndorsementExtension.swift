import Multipeer
import SwiftASN1
import X509

/// A ``Multipeer/PeerEndorsement`` carried in a peer's TLS certificate: a non-critical X.509
/// extension whose value is the DER OCTET STRING of the endorsement's bytes
/// (`docs/PROTOCOL.md` §2.3). A program that does not know it passes over it, as X.509 says of
/// a non-critical extension; one that does proves the owner along with the key.
enum EndorsementExtension {
    /// The extension's identifier: `2.25.4677257488582853888`, under the arc ITU-T X.667 gives
    /// identifiers made from a number nobody else picks (no registration is needed).
    static let oid: ASN1ObjectIdentifier = [2, 25, 4_677_257_488_582_853_888]

    /// The extension carrying `endorsement`.
    static func make(_ endorsement: PeerEndorsement) throws -> Certificate.Extension {
        var serializer = DER.Serializer()
        try serializer.serialize(ASN1OctetString(contentBytes: ArraySlice(endorsement.bytes)))
        return Certificate.Extension(oid: oid, critical: false, value: ArraySlice(serializer.serializedBytes))
    }

    /// The endorsement `certificate` carries; nil when it carries none, or one that does not read.
    static func endorsement(in certificate: Certificate) -> PeerEndorsement? {
        guard let found = certificate.extensions[oid: oid],
              let octets = try? ASN1OctetString(derEncoded: found.value)
        else { return nil }
        return PeerEndorsement(bytes: octets.bytes)
    }
}
