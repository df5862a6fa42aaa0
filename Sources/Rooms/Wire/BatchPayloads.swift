import Foundation

/// A broadcast's items as few JSON payloads as fit a frame, in order: each payload is
/// `{"items":[ITEM,…]` and a closing that the caller gives (`}`, or counts and then `}`), at most
/// a payload limit and ``maximumItems`` items long.
///
/// The caller encodes each item once, however many players read it; the host of any game
/// splits its batches and replays here, so that a busy tick is sent as several frames rather
/// than refused as one too large.
package enum BatchPayloads {
    /// The most items one payload carries before it is split.
    package static let maximumItems = 256

    /// `items` (each one item's JSON) as payloads of at most `payloadLimit` bytes; `closing(first)`
    /// ends each payload after its `]`, `first` telling the first payload from the others. An
    /// item too large for a payload of its own is sent alone, for the session to refuse; no
    /// items make one payload listing none.
    package static func split(_ items: [[UInt8]], payloadLimit: Int, closing: (_ first: Bool) -> [UInt8]) -> [Data] {
        let opening = Array(#"{"items":["#.utf8)
        var payloads: [Data] = []
        var current = opening
        var itemsInCurrent = 0
        var tail = [UInt8(ascii: "]")] + closing(true)
        func finishCurrent() {
            current.append(contentsOf: tail)
            payloads.append(Data(current))
            current = opening
            itemsInCurrent = 0
            tail = [UInt8(ascii: "]")] + closing(false)
        }
        for item in items {
            if itemsInCurrent > 0, itemsInCurrent == maximumItems || current.count + 1 + item.count + tail.count > payloadLimit {
                finishCurrent()
            }
            if itemsInCurrent > 0 { current.append(UInt8(ascii: ",")) }
            current.append(contentsOf: item)
            itemsInCurrent += 1
        }
        if itemsInCurrent > 0 || payloads.isEmpty { finishCurrent() }
        return payloads
    }
}
