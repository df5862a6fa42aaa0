#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
@_spi(CustomByteBufferAllocator) import NIOCore
import Synchronization

/// The allocator of a TLS connection's channel: its large buffers are mapped pages of their own,
/// so that only the pages a connection writes to count in the process's resident memory.
///
/// swift-nio-ssl gives every connection a 32 KiB plaintext read buffer and a 16 KiB ciphertext
/// buffer from the channel's allocator and keeps both for the connection's life; a game's link
/// writes a few hundred bytes to each at a time. Carved out of the heap, such a buffer often lands
/// on pages that earlier allocations had written and freed, so its unused part is resident all
/// the same; and the heap cannot hand back a freed one that other allocations surround. A
/// buffer of ``threshold`` bytes or more is therefore its own anonymous mapping (`mmap`): its
/// pages are resident only once written, and all are returned when it is freed. Smaller buffers
/// come from `malloc`, as with swift-nio's default allocator. Each block starts with a 16-byte
/// header holding its mapping's length (0 for `malloc`), so that freeing knows which it was;
/// a mapping that fails falls back to `malloc`. The last few mappings freed are kept for the next
/// buffers of their size (``maximumSpareMappings``): NIOSSL replaces its ciphertext buffer at a
/// flush whenever the socket still holds the last one, and a map and unmap for each such flush
/// would cost more than the bytes they save. A link that moves a stream flushes tens to hundreds
/// of KiB at a time, and NIOSSL's buffers grow past 32 KiB (past 512 KiB once a stream's window
/// has grown and it writes 256 KiB batches): a few such mappings are kept as well
/// (``maximumLargeSpareMappings``), the latest freed in place of the oldest, or every flush of a
/// stream would map, fault in and unmap its pages again.
enum PageBackedAllocator {
    /// The smallest buffer that gets pages of its own: swift-nio-ssl's ciphertext buffer (one
    /// TLS record, 16 KiB) and its plaintext read buffer (32 KiB).
    static let threshold = 16 * 1024

    /// The allocator, for `ChannelOptions.allocator`.
    static let allocator = ByteBufferAllocator(
        allocate: { size in PageBackedAllocator.allocate(Int(size)) },
        reallocate: { pointer, oldSize, newSize in PageBackedAllocator.reallocate(pointer, oldSize: Int(oldSize), newSize: Int(newSize)) },
        deallocate: { pointer in PageBackedAllocator.deallocate(pointer) },
        copy: { destination, source, count in destination.copyMemory(from: source, byteCount: Int(count)) }
    )

    /// How many freed mappings are kept for reuse, at most: with ``largestSpareBytes`` some
    /// 1 MiB for one process, however many connections it has.
    static let maximumSpareMappings = 32

    /// The largest block whose mapping is kept for reuse: NIOSSL's plaintext read buffer.
    static let largestSpareBytes = 32 * 1024

    /// How many of the mappings kept are larger than ``largestSpareBytes`` (NIOSSL's buffers on a
    /// link that moves a stream), at most: with ``largestLargeSpareBytes``, 8 MiB for one process.
    /// When as many are kept, a larger one freed takes the place of the oldest: the sizes a stream
    /// needs change as its window grows, and the latest are those it needs next.
    static let maximumLargeSpareMappings = 4

    /// The largest block whose mapping may be kept among the larger ones: NIOSSL's ciphertext
    /// buffer behind a stream's 256 KiB batches grows past 512 KiB, and with that as the largest
    /// kept, a stream at a 4 MiB window spent about a tenth of its sender's time unmapping alone
    /// (BENCHMARKS.md, "Streams, part 2").
    static let largestLargeSpareBytes = 2 * 1024 * 1024

    /// Mappings freed and kept for reuse (base address, length), the latest last.
    private static let spare = Mutex<[(base: UInt, length: Int)]>([])

    /// How many of the mappings kept for reuse now are larger than ``largestSpareBytes``.
    static var largeSpareMappings: Int { spare.withLock { spare in spare.count(where: { $0.length > mappedLength(largestSpareBytes) }) } }

    /// The header before each block: malloc's alignment, so the block keeps it.
    static let headerBytes = 16

    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// A block of at least `size` bytes: mapped pages from ``threshold`` on, else from `malloc`.
    static func allocate(_ size: Int) -> UnsafeMutableRawPointer? {
        if size >= threshold, let block = map(size) { return block }
        guard let base = malloc(size + headerBytes) else { return nil }
        base.storeBytes(of: 0, as: Int.self)
        return base + headerBytes
    }

    /// Moves a block to one of `newSize` bytes, keeping its first bytes: in place when it stays
    /// on the heap, or when its mapping has the same number of pages.
    static func reallocate(_ pointer: UnsafeMutableRawPointer?, oldSize: Int, newSize: Int) -> UnsafeMutableRawPointer? {
        guard let pointer else { return allocate(newSize) }
        let base = pointer - headerBytes
        let mapped = base.load(as: Int.self)
        if mapped == 0, newSize < threshold {
            guard let moved = realloc(base, newSize + headerBytes) else { return nil }
            return moved + headerBytes
        }
        if mapped > 0, newSize >= threshold, mappedLength(newSize) == mapped { return pointer }
        guard let block = allocate(newSize) else { return nil }
        block.copyMemory(from: pointer, byteCount: min(oldSize, newSize))
        deallocate(pointer)
        return block
    }

    /// Frees a block from ``allocate(_:)`` or ``reallocate(_:oldSize:newSize:)``.
    static func deallocate(_ pointer: UnsafeMutableRawPointer) {
        let base = pointer - headerBytes
        let mapped = base.load(as: Int.self)
        if mapped == 0 {
            free(base)
        } else {
            unmap(base, length: mapped)
        }
    }

    /// The length of the mapping that holds a block of `size` bytes and its header.
    private static func mappedLength(_ size: Int) -> Int {
        (size + headerBytes + pageSize - 1) / pageSize * pageSize
    }

    private static func map(_ size: Int) -> UnsafeMutableRawPointer? {
        let length = mappedLength(size)
        let reused = spare.withLock { spare -> UInt? in
            guard let index = spare.lastIndex(where: { $0.length == length }) else { return nil }
            return spare.remove(at: index).base
        }
        if let reused, let base = UnsafeMutableRawPointer(bitPattern: reused) { return base + headerBytes }
        guard let base = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), base != MAP_FAILED else { return nil }
        base.storeBytes(of: length, as: Int.self)
        return base + headerBytes
    }

    /// Keeps a freed mapping for reuse, or unmaps it when enough are kept; a larger one takes the
    /// place of the oldest larger one kept, which is unmapped instead.
    private static func unmap(_ base: UnsafeMutableRawPointer, length: Int) {
        let small = mappedLength(largestSpareBytes)
        var evicted: (base: UInt, length: Int)?
        let kept = spare.withLock { spare -> Bool in
            guard spare.count < maximumSpareMappings else { return false }
            if length > small {
                guard length <= mappedLength(largestLargeSpareBytes) else { return false }
                if spare.count(where: { $0.length > small }) >= maximumLargeSpareMappings,
                    let oldest = spare.firstIndex(where: { $0.length > small })
                {
                    evicted = spare.remove(at: oldest)
                }
            }
            spare.append((base: UInt(bitPattern: base), length: length))
            return true
        }
        if !kept { munmap(base, length) }
        if let evicted, let oldest = UnsafeMutableRawPointer(bitPattern: evicted.base) { munmap(oldest, evicted.length) }
    }
}
