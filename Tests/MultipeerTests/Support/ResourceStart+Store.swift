import Foundation

@testable import Multipeer

extension ResourceStart {
    /// ``open(_:from:in:store:digestFollows:rootFollows:files:)`` with the partial file on the
    /// store's own disk, as a receiver whose session and store share the system's.
    static func open(
        _ offer: Frame.ResourceOffer, from peer: UUID, in directory: URL, store: ResumeStore, digestFollows: Bool = false, rootFollows: Bool = false
    ) throws(MultipeerError) -> ResourceStart {
        try open(offer, from: peer, in: directory, store: store, digestFollows: digestFollows, rootFollows: rootFollows, files: store.files)
    }
}
