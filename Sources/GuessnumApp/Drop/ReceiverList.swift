import Multipeer
import SafeText
import Synchronization

/// The live list of receivers `guessnum send` shows to pick from: numbered in the order found,
/// a number never reused, each change one line.
///
/// A receiver that goes keeps its number, marked gone: picking it says so rather than trying an
/// address where nobody listens any more. One that comes back (discovery reports again what a
/// moment ago it reported gone) is said to be back under its number; a change that says nothing
/// new (gone twice, found twice) prints nothing.
final class ReceiverList: Sendable {
    private struct Entry {
        var receiver: DiscoveredPeer
        var isGone = false
    }

    private let entries = Mutex<[Entry]>([])

    /// What a number picks.
    enum Pick: Equatable {
        /// A receiver in the list.
        case receiver(DiscoveredPeer)
        /// The sentence to say instead: no such number, or the receiver went.
        case refused(String)
    }

    /// The line to print for `event`, if it changes what the list says.
    func apply(_ event: BrowserEvent) -> String? {
        switch event {
        case .found(let receiver), .updated(let receiver):
            return entries.withLock { entries in
                guard let index = entries.firstIndex(where: { $0.receiver.peer == receiver.peer }) else {
                    entries.append(Entry(receiver: receiver))
                    return "\(entries.count)) \(Self.name(receiver.peer))"
                }
                let wasGone = entries[index].isGone
                entries[index] = Entry(receiver: receiver)
                return wasGone ? "\(index + 1)) \(Self.name(receiver.peer)) is back" : nil
            }
        case .lost(let peer):
            return entries.withLock { entries in
                guard let index = entries.firstIndex(where: { $0.receiver.peer == peer }), !entries[index].isGone else { return nil }
                entries[index].isGone = true
                return "\(index + 1)) \(Self.name(peer)) is gone"
            }
        case .failed(let error):
            return error.message
        }
    }

    /// What `number` (as the person typed it, counting from 1) picks.
    func pick(_ number: Int) -> Pick {
        entries.withLock { entries in
            guard number >= 1, number <= entries.count else { return .refused("There is no receiver \(number) in the list.") }
            let entry = entries[number - 1]
            guard !entry.isGone else {
                return .refused("\(Self.name(entry.receiver.peer)) (\(number)) is gone: it stopped receiving, or its machine left the network. Pick another, or wait for it to be back.")
            }
            return .receiver(entry.receiver)
        }
    }

    private static func name(_ peer: PeerID) -> String { TerminalText.sanitized(peer.displayName) }
}
