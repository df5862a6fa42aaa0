import Crypto
import Foundation

/// The SHA-256 of a file being sent, taken as its bytes are read for sending
/// (``WireProtocol/Feature/digestAfterBytes``): the bytes from offset 0 on, each once, however
/// often a block is sent again after a link drops. A value: its methods do no I/O.
struct RunningDigest {
    private var hash = SHA256()
    /// The bytes hashed so far: those before this offset.
    private(set) var hashedUpTo: UInt64 = 0

    /// Hashes the part of `block`, read at `offset`, that is past what was hashed so far;
    /// nothing when it starts after that (a gap to fill first with ``hashedUpTo``).
    mutating func add(_ block: Data, at offset: UInt64) {
        let end = offset + UInt64(block.count)
        guard offset <= hashedUpTo, end > hashedUpTo else { return }
        hash.update(data: block.dropFirst(Int(hashedUpTo - offset)))
        hashedUpTo = end
    }

    /// The SHA-256 of the bytes hashed so far (the whole file's once every byte was).
    var digest: [UInt8] { Array(hash.finalize()) }
}
