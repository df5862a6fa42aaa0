/// A short list whose first element is kept inline: a message to one peer — a game's reply,
/// nearly every message a host sends — makes no array, where `[Element]` allocated storage
/// for its one element on every send.
///
/// From the second element on, all of them are in one array, made once at the capacity the
/// caller expects (``expect(_:)``): a broadcast to 10,000 peers makes one array of 10,000
/// instead of growing one a dozen times and copying it whole for ``all`` (blocks of hundreds of
/// KiB on every broadcast, which the heap kept as free memory between broadcasts).
struct InlineFirst<Element> {
    /// The element, while there is exactly one.
    private var first: Element?
    /// Every element, once there are two or more.
    private var many: [Element] = []
    /// How many elements the caller expects at most: the array's capacity when it is made.
    private var expected = 0

    init() {}

    var isEmpty: Bool { first == nil && many.isEmpty }
    /// The only element, when there is exactly one.
    var only: Element? { first }

    /// Notes that up to `count` elements may be appended.
    mutating func expect(_ count: Int) {
        expected = count
    }

    mutating func append(_ element: Element) {
        if !many.isEmpty {
            many.append(element)
        } else if let only = first {
            many.reserveCapacity(max(2, expected))
            many.append(only)
            many.append(element)
            first = nil
        } else {
            first = element
        }
    }

    /// The elements, in the order appended (the array itself, not a copy of it).
    var all: [Element] {
        if let first { return [first] }
        return many
    }
}
