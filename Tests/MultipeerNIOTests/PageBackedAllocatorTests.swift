@testable import MultipeerNIO
import NIOCore
import Testing

/// The allocator of TLS channels: small blocks from malloc, large ones mapped pages of their own,
/// and the bytes kept across every move between the two.
@Suite("The allocator of TLS channels", .timeLimit(.minutes(1)))
struct PageBackedAllocatorTests {
    private func fill(_ block: UnsafeMutableRawPointer, count: Int, seed: UInt8) {
        for index in 0..<count { block.storeBytes(of: seed &+ UInt8(truncatingIfNeeded: index), toByteOffset: index, as: UInt8.self) }
    }

    private func holds(_ block: UnsafeMutableRawPointer, count: Int, seed: UInt8) -> Bool {
        (0..<count).allSatisfy { block.load(fromByteOffset: $0, as: UInt8.self) == seed &+ UInt8(truncatingIfNeeded: $0) }
    }

    @Test("Blocks below the threshold come from malloc, blocks from it on are mappings, and each is freed the way it came")
    func smallAndLargeBlocks() throws {
        for size in [1, 100, PageBackedAllocator.threshold - 1, PageBackedAllocator.threshold, 32 * 1024, 100_000] {
            let block = try #require(PageBackedAllocator.allocate(size))
            let mapped = (block - PageBackedAllocator.headerBytes).load(as: Int.self)
            #expect((mapped > 0) == (size >= PageBackedAllocator.threshold), "\(size) bytes")
            #expect(mapped == 0 || mapped >= size + PageBackedAllocator.headerBytes, "\(size) bytes")
            #expect(Int(bitPattern: block) % 16 == 0, "\(size) bytes: malloc's alignment")
            fill(block, count: size, seed: 3)
            #expect(holds(block, count: size, seed: 3))
            PageBackedAllocator.deallocate(block)
        }
    }

    @Test("Reallocating keeps the bytes, from malloc to a mapping, between mappings, and back", arguments: [
        (100, 5_000), (5_000, 20_000), (20_000, 40_000), (40_000, 20_000), (20_000, 100), (16_384, 16_390), (100, 100_000),
    ])
    func reallocatingKeepsTheBytes(from oldSize: Int, to newSize: Int) throws {
        let block = try #require(PageBackedAllocator.allocate(oldSize))
        fill(block, count: oldSize, seed: 11)
        let moved = try #require(PageBackedAllocator.reallocate(block, oldSize: oldSize, newSize: newSize))
        #expect(holds(moved, count: min(oldSize, newSize), seed: 11))
        fill(moved, count: newSize, seed: 12)
        PageBackedAllocator.deallocate(moved)
    }

    @Test("A ByteBuffer from the allocator grows across the threshold with its bytes, and its copies stay apart")
    func byteBuffersGrowAndCopy() {
        var buffer = PageBackedAllocator.allocator.buffer(capacity: 64)
        let bytes = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        for chunk in stride(from: 0, to: bytes.count, by: 1_000) { buffer.writeBytes(bytes[chunk..<min(chunk + 1_000, bytes.count)]) }
        #expect(buffer.readableBytesView.elementsEqual(bytes))
        var copy = buffer
        copy.setInteger(UInt8(0xEE), at: 0)
        #expect(buffer.getInteger(at: 0, as: UInt8.self) == bytes[0])
        #expect(copy.getInteger(at: 0, as: UInt8.self) == 0xEE)
        for _ in 0..<(PageBackedAllocator.maximumSpareMappings * 2) {
            var large = PageBackedAllocator.allocator.buffer(capacity: 32 * 1024)
            large.writeBytes(bytes.prefix(100))
            #expect(large.readableBytesView.elementsEqual(bytes.prefix(100)))
        }
    }
}

/// A link that moves a stream flushes tens of KiB at a time: a few of the larger mappings
/// NIOSSL's buffers then take are kept for the next ones, and only a few.
@Suite("The allocator keeps a few large mappings", .timeLimit(.minutes(1)))
struct PageBackedAllocatorLargeSpareTests {
    @Test("However many 100 KB blocks are freed, at most maximumLargeSpareMappings of their mappings are kept, each one's bytes intact while in use")
    func largeMappingsBounded() throws {
        let size = 100_000
        let many = try (0..<(PageBackedAllocator.maximumLargeSpareMappings * 3)).map { _ in try #require(PageBackedAllocator.allocate(size)) }
        for (index, block) in many.enumerated() { block.storeBytes(of: UInt8(index), toByteOffset: size - 1, as: UInt8.self) }
        for (index, block) in many.enumerated() { #expect(block.load(fromByteOffset: size - 1, as: UInt8.self) == UInt8(index)) }
        for block in many { PageBackedAllocator.deallocate(block) }
        #expect(PageBackedAllocator.largeSpareMappings <= PageBackedAllocator.maximumLargeSpareMappings)
    }

    @Test("With as many large mappings kept as may be, the one freed last is kept in place of the oldest: the next block of its size is that mapping, its bytes still there")
    func latestLargeMappingKept() throws {
        // Sizes of their own (between 1 and 2 MiB, pages apart), so no other test's blocks take
        // these mappings; a mapping made anew would hold zeros.
        let sizes = (0...PageBackedAllocator.maximumLargeSpareMappings).map { 1_100_000 + $0 * 40_000 }
        let blocks = try sizes.map { try #require(PageBackedAllocator.allocate($0)) }
        for (block, size) in zip(blocks, sizes) { block.storeBytes(of: 0xA5, toByteOffset: size - 1, as: UInt8.self) }
        for block in blocks { PageBackedAllocator.deallocate(block) }
        let last = try #require(sizes.last)
        let again = try #require(PageBackedAllocator.allocate(last))
        #expect(again.load(fromByteOffset: last - 1, as: UInt8.self) == 0xA5, "the mapping freed last was not kept")
        PageBackedAllocator.deallocate(again)
        #expect(PageBackedAllocator.largeSpareMappings <= PageBackedAllocator.maximumLargeSpareMappings)
    }
}
