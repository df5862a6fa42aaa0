import Foundation
import Multipeer
import SafeText

/// What the drop box is offered and asks about once: one file, or a set of files and folders.
enum DropOffer: Sendable {
    case file(ResourceOffer)
    case set(DropSetRequest)

    /// The sender.
    var peer: PeerID {
        switch self {
        case .file(let offer): offer.peer
        case .set(let request): request.peer
        }
    }

    /// How a sentence names it: “notes.txt”, or "2 files and a folder: 414 files, 2.3 GB".
    var label: String {
        switch self {
        case .file(let offer): TerminalText.quotedName(offer.name)
        case .set(let request): request.offer.summary
        }
    }

    /// The question put to the person about it, saved in `directory`.
    func question(savingIn directory: URL) -> String {
        let sender = TerminalText.sanitized(peer.displayName)
        switch self {
        case .file(let offer):
            return "\(sender) offers \(label) (\(TransferMeter.bytes(offer.size))). Save it in \(directory.path)? [y/N]"
        case .set:
            return "\(sender) offers \(label). Save them in \(directory.path)? [y/N]"
        }
    }

    /// Declines it, telling the sender `reason`.
    func decline(reason: String) {
        switch self {
        case .file(let offer): offer.decline(reason: reason)
        case .set(let request): request.answer(accepted: false, reason: reason)
        }
    }
}

/// A set offered by a connected sender (``DropSetOffer``), answered by a ``DropSetAnswer``.
struct DropSetRequest: Sendable {
    let offer: DropSetOffer
    let peer: PeerID
    let session: Session

    /// Answers the sender; nothing happens when it is not connected (it left: the offer is
    /// withdrawn, and it offers the set again when it is back).
    func answer(accepted: Bool, reason: String?) {
        try? session.send(DropSetAnswer(set: offer.set, accepted: accepted, reason: reason, placing: accepted ? DropSetReceipt.filesPlacing : nil), to: [peer])
    }
}
