import MultipeerTestSupport
import MultipeerUnicastDNS

extension KnotServer {
    /// The zone it serves.
    static let zone = DNSName(KnotConfiguration.zone)
    /// The key it takes updates signed with.
    var key: TSIGKey { try! TSIGKey(parsing: keyText) }
}
