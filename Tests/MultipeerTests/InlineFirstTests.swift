@testable import Multipeer
import Testing

/// A broadcast's list of recipients: one inline, more in one array made at the expected size and
/// handed on as it is.
@Suite("A short list with its first element inline", .timeLimit(.minutes(1)))
struct InlineFirstTests {
    @Test("Elements come back in the order appended, for none, one and many", arguments: [0, 1, 2, 3, 100] as [Int])
    func order(count: Int) {
        var list = InlineFirst<Int>()
        list.expect(count)
        for element in 0..<count { list.append(element) }
        #expect(list.all == Array(0..<count))
        #expect(list.isEmpty == (count == 0))
        #expect(list.only == (count == 1 ? 0 : nil))
    }

    @Test("Expecting 10,000 makes one array of that capacity, and every read of it is that array, not a copy")
    func oneArray() {
        var list = InlineFirst<Int>()
        list.expect(10_000)
        for element in 0..<10_000 { list.append(element) }
        let all = list.all
        #expect(all.capacity >= 10_000 && all.capacity < 20_000)
        let base = all.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        #expect(list.all.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } == base)
    }

    @Test("Without an expected count the list still holds any number")
    func unexpected() {
        var list = InlineFirst<String>()
        for element in ["a", "b", "c", "d", "e"] { list.append(element) }
        #expect(list.all == ["a", "b", "c", "d", "e"])
    }
}
