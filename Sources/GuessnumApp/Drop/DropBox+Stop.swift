import Foundation
import Multipeer
import SafeText

extension DropBox {
    /// The sentence the box says when it stopped with transfers under way whose arrived bytes
    /// it kept (``IncomingResource/stopKeeping()``); nil when none was.
    static func keptOnStop(_ kept: [IncomingResource]) -> String? {
        guard let first = kept.first else { return nil }
        let senders = Set(kept.map { $0.peer.identity })
        let sender = senders.count == 1 ? TerminalText.sanitized(first.peer.displayName) : "their senders"
        if kept.count == 1 {
            return "Stopped: what arrived of \(TerminalText.quotedName(first.name)) is kept; when \(sender) sends it again, it goes on from there."
        }
        return "Stopped: what arrived of \(kept.count) files is kept; when \(sender) \(senders.count == 1 ? "sends" : "send") them again, they go on from there."
    }
}
