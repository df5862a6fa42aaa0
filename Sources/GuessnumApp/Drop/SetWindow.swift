/// How many files of a set the sender has under way, and whether another may start: at most
/// ``writingAtOnce`` offered and still sending their bytes (their streams share the link, whose
/// queue is bounded) — up to ``smallWritingAtOnce`` when all of those are small (at most
/// ``smallBytes`` each: each holds no more than its own bytes, and waits a round trip for its
/// answer before they go) — and at most ``atOnce`` in all, those whose bytes all went waiting
/// only for the receiver's check and result (its `fsync` and placing), so that small files do
/// not wait a round trip each while the link stays as busy as with a few files.
struct SetWindow {
    /// The most files offered and still sending.
    let writingAtOnce: Int
    /// The most files under way in all.
    let atOnce: Int
    /// The most files offered and still sending when every one of them is small.
    let smallWritingAtOnce: Int
    /// The largest file that counts as small.
    let smallBytes: Int64
    private(set) var writing = 0
    /// Those of ``writing`` larger than ``smallBytes``.
    private(set) var writingLarge = 0
    private(set) var running = 0

    /// A window of `writingAtOnce` sending and `atOnce` in all; `smallWritingAtOnce` sending
    /// when all are `smallBytes` or less (by default no more than `writingAtOnce`).
    init(writingAtOnce: Int, atOnce: Int, smallWritingAtOnce: Int? = nil, smallBytes: Int64 = 0) {
        self.writingAtOnce = writingAtOnce
        self.atOnce = atOnce
        self.smallWritingAtOnce = max(writingAtOnce, smallWritingAtOnce ?? writingAtOnce)
        self.smallBytes = smallBytes
    }

    /// Whether another file may start, of any size.
    var hasRoom: Bool { writing < writingAtOnce && running < atOnce }

    /// Whether another file of `bytes` may start.
    func hasRoom(forBytes bytes: Int64) -> Bool {
        guard running < atOnce else { return false }
        if writing < writingAtOnce { return true }
        return bytes <= smallBytes && writingLarge == 0 && writing < smallWritingAtOnce
    }

    /// A file started (of `bytes`): it is offered, and sends its bytes once accepted.
    mutating func started(bytes: Int64 = 0) {
        writing += 1
        if bytes > smallBytes { writingLarge += 1 }
        running += 1
    }

    /// A file (of `bytes`, as it was started) sent its last byte (or ended before): it waits
    /// for its result only.
    mutating func wroteAll(bytes: Int64 = 0) {
        writing -= 1
        if bytes > smallBytes { writingLarge -= 1 }
    }

    /// A file ended (after ``wroteAll(bytes:)``).
    mutating func ended() {
        running -= 1
    }
}
