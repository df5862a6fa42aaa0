import CLDNS
import Foundation
import Multipeer
import MultipeerPOSIX

/// Asks one unicast DNS server — the site's, authoritative for the zone games are published
/// in — for records, and sends it updates (RFC 2136) signed with a TSIG key (RFC 8945), through
/// NLnet Labs' ldns.
///
/// Every call runs on a thread of its own (ldns blocks until the server answers or the timeout
/// passes) with a resolver of its own, so calls may overlap.
public struct DNSClient: Sendable {
    /// The server: an IPv4 or IPv6 address and a port.
    public let server: Endpoint
    /// The key that signs updates; nil for a client that only asks.
    public let key: TSIGKey?
    /// How long one call waits for the server, in all.
    public let timeout: Duration
    /// Whether questions ask the server to find the answer elsewhere when it does not hold it —
    /// for this machine's resolver; a zone's own server is asked without.
    public let recursionDesired: Bool

    /// A client of `server`, signing with `key`.
    public init(server: Endpoint, key: TSIGKey?, timeout: Duration = .seconds(2), recursionDesired: Bool = false) {
        self.server = server
        self.key = key
        self.timeout = timeout
        self.recursionDesired = recursionDesired
    }

    // MARK: Asking

    /// The records of `type` at `name` (none when the name or the type is not there).
    /// - Throws: ``DNSError`` with a sentence: the server cannot be reached, refuses, or fails.
    public func records(_ type: DNSRecordType, at name: DNSName) async throws(DNSError) -> [DNSRecord] {
        let client = self
        return try await Self.onItsThread { () throws(DNSError) in
            try client.answers(type.ldns, at: name) { rr in DNSRecord(reading: rr, of: type) }
        }
    }

    /// The primary server of the zone `name` is in, as its SOA record names it (RFC 1035's
    /// MNAME: where RFC 2136 sends updates), or nil when no zone answers for it.
    /// - Throws: ``DNSError`` with a sentence: the server cannot be reached, refuses, or fails.
    public func primaryServer(ofZoneHolding name: DNSName) async throws(DNSError) -> DNSName? {
        let client = self
        return try await Self.onItsThread { () throws(DNSError) in
            // At a zone's apex the SOA is the answer; below it, the authority section's.
            try client.answers(LDNS_RR_TYPE_SOA, at: name, authorityToo: true) { rr in
                ldns_rr_get_type(rr) == LDNS_RR_TYPE_SOA && ldns_rr_rd_count(rr) > 0 ? DNSName(reading: ldns_rr_rdf(rr, 0)) : nil
            }.first
        }
    }

    /// Sends `deleting` (each name's records of the type given, or all of its records),
    /// `removing` (those records alone, others of their name and type left) then `adding` to the
    /// zone `zone`, in one update signed with ``key``: the server applies all or nothing, and
    /// nothing unless the zone holds exactly `requiring`'s records in their names and types
    /// (RFC 2136's value-dependent prerequisite).
    /// - Throws: ``DNSError`` with a sentence: the key is not accepted, the server refuses or
    ///   cannot be reached, a name is outside the zone, the records required changed
    ///   (``DNSError/Code/changed``).
    public func update(
        zone: DNSName, requiring: [DNSRecord] = [], deleting: [(name: DNSName, type: DNSRecordType?)] = [], removing: [DNSRecord] = [],
        adding: [DNSRecord] = []
    ) async throws(DNSError) {
        let client = self
        let deletions = deleting.map { RRsetDeletion(name: $0.name, type: $0.type) }
        try await Self.onItsThread { () throws(DNSError) in
            try client.updateNow(zone: zone, requiring: requiring, deleting: deletions, removing: removing, adding: adding)
        }
    }

    private struct RRsetDeletion: Sendable {
        var name: DNSName
        var type: DNSRecordType?
    }

    private static func onItsThread<T: Sendable>(_ work: @escaping @Sendable () throws(DNSError) -> T) async throws(DNSError) -> T {
        let result = await onOwnThread { () -> Result<T, DNSError> in
            do throws(DNSError) { return .success(try work()) } catch { return .failure(error) }
        }
        return try result.get()
    }

    // MARK: On the call's thread

    /// The answer's records of `type` at `name`, each as `reading` makes it (those it makes nil
    /// left out); with `authorityToo`, the authority section's after them.
    private func answers<T>(
        _ type: ldns_rr_type, at name: DNSName, authorityToo: Bool = false, reading: (UnsafePointer<ldns_rr>) -> T?
    ) throws(DNSError) -> [T] {
        // Questions go unsigned: the answers are public, and a key the server refuses must not
        // keep this machine from listing games.
        let resolver = try makeResolver(signing: false)
        defer { ldns_resolver_deep_free(resolver) }
        guard let owner = ldns_dname_new_frm_str(name.presentation) else {
            throw DNSError(.invalidInput, "\(name) is not a name DNS can carry.")
        }
        defer { ldns_rdf_deep_free(owner) }
        var answer: UnsafeMutablePointer<ldns_pkt>?
        let status = ldns_resolver_send(&answer, resolver, owner, type, LDNS_RR_CLASS_IN, recursionDesired ? UInt16(LDNS_RD) : 0)
        defer { if let answer { ldns_pkt_free(answer) } }
        guard status == LDNS_STATUS_OK, let answer else { throw failure(status, asking: "for \(name)") }
        switch ldns_pkt_get_rcode(answer) {
        case LDNS_RCODE_NOERROR, LDNS_RCODE_NXDOMAIN: break
        case let rcode: throw failure(rcode, doing: "answer for \(name)")
        }
        let sections = authorityToo ? [ldns_pkt_answer(answer), ldns_pkt_authority(answer)] : [ldns_pkt_answer(answer)]
        return sections.flatMap { list -> [T] in
            guard let list else { return [] }
            return (0..<ldns_rr_list_rr_count(list)).compactMap { index in
                ldns_rr_list_rr(list, index).flatMap { reading($0) }
            }
        }
    }

    private func updateNow(zone: DNSName, requiring: [DNSRecord], deleting: [RRsetDeletion], removing: [DNSRecord], adding: [DNSRecord]) throws(DNSError) {
        let resolver = try makeResolver(signing: true)
        defer { ldns_resolver_deep_free(resolver) }
        guard let list = ldns_rr_list_new(), let prerequisites = ldns_rr_list_new() else {
            throw DNSError(.invalidInput, "Could not make an update (out of memory).")
        }
        defer { ldns_rr_list_deep_free(list) }
        defer { ldns_rr_list_deep_free(prerequisites) }
        for record in requiring {
            // RFC 2136 2.4.2: class IN, TTL 0, the data: the RRset exists with exactly these.
            let rr = try Self.rr(record)
            ldns_rr_set_ttl(rr, 0)
            ldns_rr_list_push_rr(prerequisites, rr)
        }
        for deletion in deleting {
            // RFC 2136 2.5.2: class ANY, TTL 0, no data: the name's records of the type (ANY: all).
            guard let rr = ldns_rr_new(), let owner = ldns_dname_new_frm_str(deletion.name.presentation) else {
                throw DNSError(.invalidInput, "\(deletion.name) is not a name DNS can carry.")
            }
            ldns_rr_set_owner(rr, owner)
            ldns_rr_set_type(rr, deletion.type?.ldns ?? LDNS_RR_TYPE_ANY)
            ldns_rr_set_class(rr, LDNS_RR_CLASS_ANY)
            ldns_rr_set_ttl(rr, 0)
            ldns_rr_list_push_rr(list, rr)
        }
        for record in removing {
            // RFC 2136 2.5.4: class NONE, TTL 0, the record's data: that record alone.
            let rr = try Self.rr(record)
            ldns_rr_set_class(rr, LDNS_RR_CLASS_NONE)
            ldns_rr_set_ttl(rr, 0)
            ldns_rr_list_push_rr(list, rr)
        }
        for record in adding {
            ldns_rr_list_push_rr(list, try Self.rr(record))
        }
        guard let zoneName = ldns_dname_new_frm_str(zone.presentation) else { throw DNSError(.invalidInput, "\(zone) is not a zone name.") }
        // The packet owns the zone's name from here.
        guard let packet = ldns_update_pkt_new(zoneName, LDNS_RR_CLASS_IN, requiring.isEmpty ? nil : prerequisites, list, nil) else {
            ldns_rdf_deep_free(zoneName)
            throw DNSError(.invalidInput, "Could not make an update of \(zone).")
        }
        defer { ldns_pkt_free(packet) }
        ldns_pkt_set_random_id(packet)
        let signed = ldns_update_pkt_tsig_add(packet, resolver)
        guard signed == LDNS_STATUS_OK else {
            throw DNSError(.invalidInput, "Could not sign the update with the key \(key?.name.description ?? ""): \(String(cString: ldns_get_errorstr_by_id(signed))).")
        }
        var answer: UnsafeMutablePointer<ldns_pkt>?
        let status = ldns_resolver_send_pkt(&answer, resolver, packet)
        defer { if let answer { ldns_pkt_free(answer) } }
        guard status == LDNS_STATUS_OK, let answer else { throw failure(status, asking: "to update \(zone)") }
        let rcode = ldns_pkt_get_rcode(answer)
        guard rcode == LDNS_RCODE_NOERROR else { throw failure(rcode, doing: "update of \(zone)") }
    }

    /// `record` as ldns holds it (the caller frees it, or hands it to a list that does).
    private static func rr(_ record: DNSRecord) throws(DNSError) -> UnsafeMutablePointer<ldns_rr> {
        var rr: UnsafeMutablePointer<ldns_rr>?
        let status = ldns_rr_new_frm_str(&rr, record.presentation, 0, nil, nil)
        guard status == LDNS_STATUS_OK, let rr else {
            throw DNSError(.invalidInput, "The record \(record.presentation) cannot be written: \(String(cString: ldns_get_errorstr_by_id(status))).")
        }
        return rr
    }

    /// A resolver that asks ``server`` alone, signs with ``key`` when `signing`, and gives up
    /// after ``timeout``.
    private func makeResolver(signing: Bool) throws(DNSError) -> UnsafeMutablePointer<ldns_resolver> {
        guard let address = ldns_rdf_new_frm_str(LDNS_RDF_TYPE_A, server.host) ?? ldns_rdf_new_frm_str(LDNS_RDF_TYPE_AAAA, server.host) else {
            throw DNSError(.invalidInput, "The DNS server is given as \(server.host); give its IPv4 or IPv6 address.")
        }
        defer { ldns_rdf_deep_free(address) }
        guard let resolver = ldns_resolver_new() else { throw DNSError(.invalidInput, "Could not make a DNS resolver (out of memory).") }
        ldns_resolver_push_nameserver(resolver, address)
        ldns_resolver_set_port(resolver, UInt16(clamping: server.port))
        ldns_resolver_set_recursive(resolver, recursionDesired ? 1 : 0)
        // Two tries, each half the time.
        let half = timeout / 2
        let (seconds, attoseconds) = half.components
        ldns_resolver_set_timeout(resolver, timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000)))
        ldns_resolver_set_retry(resolver, 2)
        ldns_resolver_set_retrans(resolver, 0)
        if signing, let key {
            ldns_resolver_set_tsig_keyname(resolver, key.name.presentation)
            ldns_resolver_set_tsig_algorithm(resolver, key.algorithm.wireName)
            ldns_resolver_set_tsig_keydata(resolver, key.secret)
        }
        return resolver
    }

    /// The sentence for an ldns `status` other than OK while `asking`.
    private func failure(_ status: ldns_status, asking what: String) -> DNSError {
        let reason = String(cString: ldns_get_errorstr_by_id(status))
        switch status {
        case LDNS_STATUS_CRYPTO_TSIG_BOGUS, LDNS_STATUS_CRYPTO_TSIG_ERR:
            return DNSError(.notAuthorized, "The DNS server at \(server) did not accept the key \(key?.name.description ?? "") (\(reason)): check its name, secret and algorithm with the server's administrator, and this machine's clock.")
        case LDNS_STATUS_NETWORK_ERR, LDNS_STATUS_SOCKET_ERROR, LDNS_STATUS_ADDRESS_ERR, LDNS_STATUS_RES_NO_NS:
            return DNSError(.unreachable, "The DNS server at \(server) did not answer \(what) within \(timeout) (\(reason)): check that it runs and that this network reaches it.")
        default:
            return DNSError(.badResponse, "The DNS server at \(server) gave an answer \(what) that could not be read (\(reason)).")
        }
    }

    /// The sentence for the server's `rcode` to a `what`.
    private func failure(_ rcode: ldns_pkt_rcode, doing what: String) -> DNSError {
        switch rcode {
        case LDNS_RCODE_REFUSED:
            return DNSError(.refused, "The DNS server at \(server) refused the \(what): it does not take it from here, or not with this key; ask its administrator to allow it.")
        case LDNS_RCODE_NOTAUTH:
            return DNSError(.notAuthorized, "The DNS server at \(server) did not accept the key \(key?.name.description ?? "(none)") for the \(what): check its name, secret and algorithm with the server's administrator, and this machine's clock.")
        case LDNS_RCODE_NXRRSET, LDNS_RCODE_YXRRSET, LDNS_RCODE_YXDOMAIN, LDNS_RCODE_NXDOMAIN:
            return DNSError(.changed, "The records the \(what) was for changed on the DNS server at \(server) meanwhile; nothing was changed.")
        case LDNS_RCODE_NOTZONE:
            return DNSError(.notInZone, "The DNS server at \(server) is not the server of the zone in the \(what): check the domain.")
        default:
            return DNSError(.serverFailure, "The DNS server at \(server) failed the \(what) (response code \(rcode.rawValue)).")
        }
    }
}

extension DNSRecord {
    /// The record `rr` holds, if it is of `type` and well formed.
    init?(reading rr: UnsafePointer<ldns_rr>, of type: DNSRecordType) {
        guard ldns_rr_get_type(rr) == type.ldns, let owner = DNSName(reading: ldns_rr_owner(rr)) else { return nil }
        let fields = (0..<ldns_rr_rd_count(rr)).compactMap { ldns_rr_rdf(rr, $0) }
        let data: Data
        switch type {
        case .ptr:
            guard let field = fields.first, let target = DNSName(reading: field) else { return nil }
            data = .ptr(target)
        case .srv:
            guard fields.count == 4, let target = DNSName(reading: fields[3]) else { return nil }
            data = .srv(
                priority: ldns_rdf2native_int16(fields[0]), weight: ldns_rdf2native_int16(fields[1]), port: ldns_rdf2native_int16(fields[2]),
                target: target)
        case .txt:
            data = .txt(fields.map { field in
                let bytes = UnsafeBufferPointer(start: ldns_rdf_data(field), count: ldns_rdf_size(field))
                return Array(bytes.dropFirst().prefix(Int(bytes.first ?? 0)))  // a length byte, then the string
            })
        case .a, .aaaa:
            guard let field = fields.first, let text = ldns_rdf2str(field) else { return nil }
            defer { free(text) }
            data = type == .a ? .a(String(cString: text)) : .aaaa(String(cString: text))
        }
        self.init(name: owner, ttl: ldns_rr_ttl(rr), data: data)
    }
}

extension DNSName {
    /// The name a dname rdf holds, label by label as its bytes say (UTF-8, or replaced where not).
    init?(reading rdf: UnsafePointer<ldns_rdf>?) {
        guard let rdf, ldns_rdf_get_type(rdf) == LDNS_RDF_TYPE_DNAME else { return nil }
        var labels: [String] = []
        for index in 0..<ldns_dname_label_count(rdf) {
            guard let label = ldns_dname_label(rdf, index) else { return nil }
            defer { ldns_rdf_deep_free(label) }
            let bytes = UnsafeBufferPointer(start: ldns_rdf_data(label), count: ldns_rdf_size(label))
            labels.append(String(decoding: bytes.dropFirst().prefix(Int(bytes.first ?? 0)), as: UTF8.self))
        }
        self.init(labels: labels)
    }
}
