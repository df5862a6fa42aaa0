import Foundation
import Rooms

/// The file the resource benchmark sends: pseudo-random bytes (SplitMix64, so nothing on the
/// way could compress them), written in 8 MiB pieces.
enum BenchFile {
    static func make(at url: URL, bytes: Int, seed: UInt64 = 26) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw BenchFailure("cannot create \(url.path)")
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var random = SplitMix64(seed: seed)
        let pieceWords = 1 << 20  // 8 MiB
        var piece = [UInt64](repeating: 0, count: pieceWords)
        var left = bytes
        while left > 0 {
            for index in piece.indices { piece[index] = random.next() }
            let count = min(left, pieceWords * 8)
            try piece.withUnsafeBytes { try handle.write(contentsOf: Data($0.prefix(count))) }
            left -= count
        }
    }
}
