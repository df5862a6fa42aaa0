/// How many files of a set the sender has under way, and whether another may start: at most
/// ``writingAtOnce`` offered and still sending their bytes (their streams share the link, whose
/// queue is bounded), and at most ``atOnce`` in all, those whose bytes all went waiting only
/// for the receiver's check and result (its `fsync` and placing), so that small files do not
/// wait a round trip each while the link stays as busy as with a few files.
struct SetWindow {
    /// The most files offered and still sending.
    let writingAtOnce: Int
    /// The most files under way in all.
    let atOnce: Int
    private(set) var writing = 0
    private(set) var running = 0

    /// Whether another file may start.
    var hasRoom: Bool { writing < writingAtOnce && running < atOnce }

    /// A file started: it is offered, and sends its bytes once accepted.
    mutating func started() {
        writing += 1
        running += 1
    }

    /// A file sent its last byte (or ended before): it waits for its result only.
    mutating func wroteAll() {
        writing -= 1
    }

    /// A file ended (after ``wroteAll()``).
    mutating func ended() {
        running -= 1
    }
}
