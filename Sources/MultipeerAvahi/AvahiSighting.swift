import CAvahi
import Foundation
import Multipeer

/// A service seen on one interface over one protocol, and its resolver. Touched only under the
/// poll lock.
final class AvahiSighting: @unchecked Sendable {
    struct Key: Hashable {
        let interface: AvahiIfIndex
        let proto: AvahiProtocol
        let name: String
    }

    /// What the resolver found.
    struct Resolution {
        let address: String
        let port: Int
        let txt: [String: String]
        let isIPv6: Bool
        /// Later resolutions win when sightings disagree.
        let sequence: UInt64
    }

    let key: Key
    private(set) var resolution: Resolution?
    private unowned let owner: AvahiBrowseRecord
    private var resolver: OpaquePointer?
    private var resolverRetain: Unmanaged<AvahiSighting>?
    nonisolated(unsafe) private static var sequence: UInt64 = 0  // guarded by the poll lock

    init(key: Key, owner: AvahiBrowseRecord) {
        self.key = key
        self.owner = owner
    }

    /// Starts resolving; the resolver stays alive and reports again when the service changes.
    /// It asks for an address of the sighting's own family (an IPv4 sighting gives the A record),
    /// since Avahi may otherwise answer an IPv4 sighting with a link-local IPv6 address.
    func resolve(with client: OpaquePointer?, type: String, domain: UnsafePointer<CChar>?) -> Bool {
        let retain = Unmanaged.passRetained(self)
        guard let created = avahi_service_resolver_new(
            client, key.interface, key.proto, key.name, type, domain, key.proto,
            AvahiLookupFlags(rawValue: 0), avahiServiceResolverCallback, retain.toOpaque())
        else {
            retain.release()
            return false
        }
        resolver = created
        resolverRetain = retain
        return true
    }

    func resolved(address: UnsafePointer<AvahiAddress>?, port: UInt16, txt: UnsafeMutablePointer<AvahiStringList>?) {
        guard let address else { return }
        var text = [CChar](repeating: 0, count: cavahi_address_text_max())
        avahi_address_snprint(&text, text.count, address)
        var host = Self.string(fromNullTerminated: text)
        let isIPv6 = address.pointee.proto == cavahi_proto_inet6()
        if isIPv6, host.lowercased().hasPrefix("fe80:") {
            var interfaceName = [CChar](repeating: 0, count: Int(IF_NAMESIZE) + 1)
            if if_indextoname(UInt32(key.interface), &interfaceName) != nil { host += "%" + Self.string(fromNullTerminated: interfaceName) }
        }
        Self.sequence += 1
        resolution = Resolution(address: host, port: Int(port), txt: TXTRecord.read(txt), isIPv6: isIPv6, sequence: Self.sequence)
        owner.merge(key.name)
    }

    private static func string(fromNullTerminated buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func free() {
        if let resolver { avahi_service_resolver_free(resolver) }
        detach()
    }

    func detach() {
        resolver = nil
        resolverRetain?.release()
        resolverRetain = nil
    }
}

private func avahiServiceResolverCallback(
    _ resolver: OpaquePointer?, _ interface: AvahiIfIndex, _ proto: AvahiProtocol, _ event: AvahiResolverEvent,
    _ name: UnsafePointer<CChar>?, _ type: UnsafePointer<CChar>?, _ domain: UnsafePointer<CChar>?,
    _ hostName: UnsafePointer<CChar>?, _ address: UnsafePointer<AvahiAddress>?, _ port: UInt16,
    _ txt: UnsafeMutablePointer<AvahiStringList>?, _ flags: AvahiLookupResultFlags, _ userdata: UnsafeMutableRawPointer?
) {
    guard let userdata, event == AVAHI_RESOLVER_FOUND else { return }
    Unmanaged<AvahiSighting>.fromOpaque(userdata).takeUnretainedValue().resolved(address: address, port: port, txt: txt)
}
