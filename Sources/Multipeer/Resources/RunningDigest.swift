import Crypto
import Foundation

/// The digest of a file being sent, taken as its bytes are read for sending
/// (``WireProtocol/Feature/digestAfterBytes``): the bytes from offset 0 on, each once, however
/// often a block is sent again after a link drops — the whole file's SHA-256, or its chunk root
/// (``WireProtocol/Feature/chunkRootAfterBytes``). A value: its methods do no I/O.
struct RunningDigest {
    private enum Hash {
        case whole(SHA256)
        case chunks(ChunkDigests)
    }

    private var hash: Hash
    /// The bytes hashed so far: those before this offset.
    private(set) var hashedUpTo: UInt64 = 0

    /// - Parameters:
    ///   - size: the file's size.
    ///   - root: whether the digest is its chunk root, not its whole SHA-256.
    init(size: UInt64, root: Bool) {
        hash = root ? .chunks(ChunkDigests(size: size, hashingWhole: false)) : .whole(SHA256())
    }

    /// Whether the digest is the chunk root.
    var isRoot: Bool {
        if case .chunks = hash { true } else { false }
    }

    /// Hashes the part of `block`, read at `offset`, that is past what was hashed so far;
    /// nothing when it starts after that (a gap to fill first with ``hashedUpTo``).
    mutating func add(_ block: Data, at offset: UInt64) {
        let end = offset + UInt64(block.count)
        guard offset <= hashedUpTo, end > hashedUpTo else { return }
        let fresh = block.dropFirst(Int(hashedUpTo - offset))
        switch hash {
        case .whole(var hasher):
            hasher.update(data: fresh)
            hash = .whole(hasher)
        case .chunks(var digests):
            _ = digests.add(fresh)
            hash = .chunks(digests)
        }
        hashedUpTo = end
    }

    /// The digest of the bytes hashed so far (the whole file's once every byte was).
    var digest: [UInt8] {
        switch hash {
        case .whole(let hasher): Array(hasher.finalize())
        case .chunks(let digests): digests.claim.root
        }
    }
}
