/// What waits to be written to a terminal that may fall behind: a queue bounded in lines and
/// bytes, so that a program never waits for its screen and never holds unbounded memory for it.
///
/// Counted items (the lines to print) beyond the bounds are not queued but counted, and the
/// count takes their place in the queue as one ``Entry/skipped(_:)``, which the writer shows as
/// ``skippedLine(_:)``. Uncounted items (a prompt change, a close) are always queued: they are
/// few by nature.
///
/// ```swift
/// var backlog = OutputBacklog<String>(maximumLines: 2, maximumBytes: 1_000)
/// for line in ["a", "b", "c", "d"] { backlog.append(line, bytes: line.utf8.count) }
/// backlog.popFirst()   // .item("a"); then .item("b"), then .skipped(2)
/// ```
public struct OutputBacklog<Item: Sendable>: Sendable {
    /// One thing to write.
    public enum Entry: Sendable {
        /// An item, in order.
        case item(Item)
        /// This many counted items were dropped here.
        case skipped(Int)
    }

    /// The most counted items queued at once.
    public let maximumLines: Int
    /// The most bytes of counted items queued at once.
    public let maximumBytes: Int

    private var entries: [Entry?] = []
    private var head = 0
    /// The sizes of the queued counted items, as they were given (to subtract when popped).
    private var sizes: [Int?] = []
    private var lines = 0
    private var bytes = 0

    /// An empty backlog holding at most `maximumLines` lines of `maximumBytes` bytes together.
    public init(maximumLines: Int = 1_000, maximumBytes: Int = 256 << 10) {
        self.maximumLines = max(1, maximumLines)
        self.maximumBytes = max(1, maximumBytes)
    }

    /// Whether nothing waits.
    public var isEmpty: Bool { head == entries.count }

    /// Queues `item`, a counted line of `bytes` bytes, or counts it as skipped when the backlog
    /// is full. Returns whether it was queued.
    @discardableResult
    public mutating func append(_ item: Item, bytes size: Int) -> Bool {
        guard lines < maximumLines, bytes + size <= maximumBytes || lines == 0 else {
            if entries.count > head, case .skipped(let count)? = entries[entries.count - 1] {
                entries[entries.count - 1] = .skipped(count + 1)
            } else {
                push(.skipped(1), size: nil)
            }
            return false
        }
        lines += 1
        bytes += size
        push(.item(item), size: size)
        return true
    }

    /// Queues `item` whatever the bounds (for the few that are not lines).
    public mutating func appendUncounted(_ item: Item) {
        push(.item(item), size: nil)
    }

    /// The oldest entry, removed; nil when nothing waits.
    public mutating func popFirst() -> Entry? {
        guard head < entries.count else { return nil }
        let entry = entries[head]
        if let size = sizes[head] {
            lines -= 1
            bytes -= size
        }
        entries[head] = nil
        head += 1
        if head == entries.count {
            entries.removeAll(keepingCapacity: true)
            sizes.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 1_024, head * 2 > entries.count {
            entries.removeFirst(head)
            sizes.removeFirst(head)
            head = 0
        }
        return entry
    }

    /// The line that stands for `count` skipped lines.
    public static func skippedLine(_ count: Int) -> String {
        "… \(count) line\(count == 1 ? "" : "s") skipped: the terminal fell behind."
    }

    private mutating func push(_ entry: Entry, size: Int?) {
        entries.append(entry)
        sizes.append(size)
    }
}
