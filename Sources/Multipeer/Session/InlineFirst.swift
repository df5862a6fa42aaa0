/// A short list whose first element is kept inline: a message to one peer — a game's reply,
/// nearly every message a host sends — makes no array, where `[Element]` allocated storage
/// for its one element on every send.
struct InlineFirst<Element> {
    private var first: Element?
    private var rest: [Element] = []

    init() {}

    var isEmpty: Bool { first == nil }
    /// The only element, when there is exactly one.
    var only: Element? { rest.isEmpty ? first : nil }

    mutating func append(_ element: Element) {
        if first == nil { first = element } else { rest.append(element) }
    }

    /// The elements, in the order appended.
    var all: [Element] {
        guard let first else { return [] }
        return [first] + rest
    }
}
