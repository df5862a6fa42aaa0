import Foundation
import Multipeer

/// A set the drop box accepted, as its files arrive: what it may still take (no more files or
/// bytes than the offer said, at most ``filesAtOnce`` at once receiving their bytes and
/// ``filesPlacing`` more whose bytes all arrived and that wait to be put in place, so a sender
/// cannot make it hold more), the files under way, and how those that ended went. It keeps
/// nothing per file that ended: a set of any size costs the same.
struct DropSetReceipt {
    /// The most files of one set receiving their bytes at once (the sender sends a few at a
    /// time).
    static let filesAtOnce = 16
    /// The most files of one set, past those receiving, whose bytes all arrived and that wait
    /// to be checked and put in place (their bytes synced to the disk in a group, then
    /// linked): they hold no bytes in memory, two descriptors each. Said to the sender in the
    /// set's answer (``DropSetAnswer/placing``), so that small files keep the link busy while
    /// the disk syncs them in groups.
    static let filesPlacing = 96
    /// The most files of one set held, past ``filesAtOnce``, until one under way ends (a
    /// sender of this release offers a few more than it may run at once).
    static let filesWaiting = 16

    let offer: DropSetOffer
    let peer: PeerID
    let progress: SetProgress
    /// Files offered and taken in so far, and their bytes.
    private(set) var offered = 0
    private(set) var offeredBytes: Int64 = 0
    /// The files under way.
    private(set) var running: [IncomingResource] = []
    /// Those of ``running`` whose bytes all arrived.
    private(set) var placing: Set<ObjectIdentifier> = []
    private(set) var saved = 0
    private(set) var savedBytes: Int64 = 0
    /// The sender said it has the outcome of every file.
    var ended: DropSetEnd?
    /// Empty folders made so far (at most the offer's).
    var foldersMade = 0
    /// Waits for a sender whose link dropped.
    var expiry: Task<Void, Never>?

    init(offer: DropSetOffer, peer: PeerID) {
        self.offer = offer
        self.peer = peer
        progress = SetProgress(name: DropSetOffer.files(offer.files), totalBytes: offer.bytes)
    }

    /// Takes in a file of `size` bytes: nil, or why it is declined (it would go past the offer,
    /// or past the files at once).
    mutating func admit(size: Int64) -> String? {
        if !hasRoom { return "more than \(Self.filesAtOnce) files of a set at once (and \(Self.filesPlacing) being put in place)" }
        if offered >= offer.files { return "the set was offered with \(DropSetOffer.files(offer.files)), and this one is past them" }
        if offeredBytes + size > offer.bytes { return "the set was offered with \(TransferMeter.bytes(offer.bytes)), and this file goes past them" }
        offered += 1
        offeredBytes += size
        return nil
    }

    /// Files under way that are still receiving their bytes.
    var receiving: Int { running.count - placing.count }

    /// Whether another file may start now: fewer than ``filesAtOnce`` receiving, and fewer
    /// than ``filesAtOnce`` and ``filesPlacing`` under way in all.
    var hasRoom: Bool { receiving < Self.filesAtOnce && running.count < Self.filesAtOnce + Self.filesPlacing }

    /// The bytes of the file `name` all arrived: it waits to be put in place, and no longer
    /// counts among those receiving. Nothing happens for a file not under way.
    mutating func arrived(_ name: String) {
        guard let resource = running.first(where: { $0.name.utf8.elementsEqual(name.utf8) }) else { return }
        placing.insert(ObjectIdentifier(resource))
    }

    /// Whether the file `name` is one of the set's under way (a file its sender sent alone
    /// before the set is not).
    func isRunning(_ name: String) -> Bool {
        running.contains { $0.name.utf8.elementsEqual(name.utf8) }
    }

    /// `resource` started.
    mutating func started(_ resource: IncomingResource) {
        running.append(resource)
    }

    /// The file `name` ended, saved or not.
    mutating func finished(_ name: String, saved: Bool) {
        // By its bytes: String equality would take names that differ only in normalization for one.
        guard let index = running.firstIndex(where: { $0.name.utf8.elementsEqual(name.utf8) }) else { return }
        let resource = running.remove(at: index)
        placing.remove(ObjectIdentifier(resource))
        if saved {
            self.saved += 1
            savedBytes += resource.totalBytes
        }
    }

    /// Whether the sender ended the set and no file of it is under way.
    var isComplete: Bool { ended != nil && running.isEmpty }

    /// Files of the offer that were not saved (yet).
    var missing: Int { offer.files - saved }
}
