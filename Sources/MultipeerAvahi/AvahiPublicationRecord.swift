import CAvahi
import Dispatch
import Multipeer

/// One announced service and its Avahi entry group. Touched only under the poll lock.
final class AvahiPublicationRecord: @unchecked Sendable {
    private(set) var name: String
    private let type: String
    private let port: UInt16
    private var entries: [String]
    private var group: OpaquePointer?
    /// The retain the entry group's `userdata` holds; released once the group is freed.
    private var groupRetain: Unmanaged<AvahiPublicationRecord>?
    private var lastReport: PublicationEvent?
    private let onEvent: @Sendable (PublicationEvent) -> Void
    private let delivery: DispatchQueue

    init(name: String, type: String, port: UInt16, entries: [String], delivery: DispatchQueue, onEvent: @escaping @Sendable (PublicationEvent) -> Void) {
        self.name = name
        self.type = type
        self.port = port
        self.entries = entries
        self.delivery = delivery
        self.onEvent = onEvent
    }

    /// Hands `event` to the handler, once: a repeated event, or a second failure of the same
    /// kind in a row (the daemon "stopped", then "is not running"), is not reported again.
    func report(_ event: PublicationEvent) {
        if case .failed(let error) = event, case .failed(let last) = lastReport, error.code == last.code { return }
        guard event != lastReport else { return }
        lastReport = event
        let onEvent = onEvent
        delivery.async { onEvent(event) }
    }

    func reportDaemonMissing() {
        report(.failed(.avahiDaemonMissing))
    }

    /// Creates the entry group if needed and announces the service.
    func register(on client: OpaquePointer) {
        if group == nil {
            let retain = Unmanaged.passRetained(self)
            guard let created = avahi_entry_group_new(client, avahiEntryGroupCallback, retain.toOpaque()) else {
                retain.release()
                report(.failed(.avahiPublishFailed(name, avahi_client_errno(client))))
                return
            }
            group = created
            groupRetain = retain
        }
        if let group, avahi_entry_group_is_empty(group) != 0 { addService() }
    }

    /// Announces the service in the (empty) group, taking another name while the current one
    /// collides locally.
    private func addService() {
        guard let group else { return }
        let list = TXTRecord.makeList(entries)
        defer { avahi_string_list_free(list) }
        while true {
            let result = avahi_entry_group_add_service_strlst(
                group, cavahi_if_unspec(), cavahi_proto_unspec(), AvahiPublishFlags(rawValue: 0),
                name, type, nil, nil, port, list)
            if result == cavahi_err_collision() {
                rename()
                continue
            }
            if result < 0 {
                report(.failed(.avahiPublishFailed(name, result)))
                return
            }
            break
        }
        let committed = avahi_entry_group_commit(group)
        if committed < 0 { report(.failed(.avahiPublishFailed(name, committed))) }
    }

    private func rename() {
        guard let alternative = avahi_alternative_service_name(name) else { return }
        name = String(cString: alternative)
        avahi_free(alternative)
        report(.renamed(name))
    }

    func groupChanged(_ changed: OpaquePointer?, _ state: AvahiEntryGroupState) {
        switch state {
        case AVAHI_ENTRY_GROUP_ESTABLISHED:
            report(.established)
        case AVAHI_ENTRY_GROUP_COLLISION:
            // Someone else on the network has this name: take "Name #2" and announce again.
            rename()
            if let changed { avahi_entry_group_reset(changed) }
            addService()
        case AVAHI_ENTRY_GROUP_FAILURE:
            let code = changed.map { avahi_client_errno(avahi_entry_group_get_client($0)) } ?? 0
            report(.failed(.avahiPublishFailed(name, code)))
        default:
            break
        }
    }

    /// Replaces the TXT record, in place when the service is announced.
    func update(_ entries: [String]) throws(MultipeerError) {
        self.entries = entries
        guard let group, avahi_entry_group_is_empty(group) == 0 else { return }
        let list = TXTRecord.makeList(entries)
        defer { avahi_string_list_free(list) }
        let result = avahi_entry_group_update_service_txt_strlst(
            group, cavahi_if_unspec(), cavahi_proto_unspec(), AvahiPublishFlags(rawValue: 0), name, type, nil, list)
        if result < 0 { throw .avahiPublishFailed(name, result) }
    }

    /// The host name is changing: the group empties and is filled again when the client runs.
    func resetForHostNameChange() {
        if let group { avahi_entry_group_reset(group) }
    }

    /// Withdraws the service (Avahi sends the goodbye) and frees the group.
    func withdraw() {
        if let group { avahi_entry_group_free(group) }
        detach()
    }

    /// Forgets the group, which the caller freed (directly or by freeing the client).
    func detach() {
        group = nil
        groupRetain?.release()
        groupRetain = nil
    }
}

private func avahiEntryGroupCallback(_ group: OpaquePointer?, _ state: AvahiEntryGroupState, _ userdata: UnsafeMutableRawPointer?) {
    guard let userdata else { return }
    Unmanaged<AvahiPublicationRecord>.fromOpaque(userdata).takeUnretainedValue().groupChanged(group, state)
}
