/// Constants of the wire protocol (see `docs/PROTOCOL.md`).
public enum WireProtocol {
    /// The protocol version this library speaks.
    public static let version: UInt16 = 3
    /// The largest credit one STREAM_WINDOW frame may grant: 2³¹ − 1 bytes.
    public static let maximumStreamCredit: UInt32 = 0x7FFF_FFFF
    /// The features this library announces in HELLO and ACCEPT (version 3 on): a bit each.
    /// A frame kind that belongs to a feature may be sent on a link only when both sides
    /// announced its bit (see `docs/PROTOCOL.md` §9).
    public static let features: UInt32 = Feature.streams | Feature.resources | Feature.resume | Feature.folders | Feature.restartResume
        | Feature.digestAfterBytes | Feature.chunkRootAfterBytes
    /// Messages only, with their resume (``SessionConfiguration/features`` of an application
    /// that opens no byte stream and sends no resource).
    public static let messagesOnly: UInt32 = Feature.resume
    /// The feature bits of HELLO and ACCEPT.
    public enum Feature {
        /// Byte streams: the STREAM_OPEN, STREAM_DATA, STREAM_WINDOW and STREAM_CLOSE frames.
        public static let streams: UInt32 = 1 << 0
        /// Resources (files) on byte streams: the RESOURCE_OFFER, RESOURCE_ANSWER and
        /// RESOURCE_RESULT frames. Needs ``streams``.
        public static let resources: UInt32 = 1 << 1
        /// Message resume: the RESUME and ACKNOWLEDGE frames. Messages are numbered, kept until
        /// acknowledged, and a link that drops is followed, when the same two sessions connect
        /// again, by exactly the messages the other side did not get (`docs/PROTOCOL.md` §5.5).
        public static let resume: UInt32 = 1 << 2
        /// Folders and several files at once: a RESOURCE_OFFER's name may be a relative path
        /// (``ResourcePath``), whose folders the receiver makes under its directory. Needs
        /// ``resources``. Without it such a name is a violation; an earlier peer, which does not
        /// announce the bit, is never offered one (`docs/PROTOCOL.md` §3.9).
        public static let folders: UInt32 = 1 << 3
        /// Resume after either program restarts: a receiver that goes on from what it holds
        /// says so with RESOURCE_HELD (its chunks' SHA-256s, folded), and the sender checks them
        /// against its own file before it skips them, answering with the offset it goes on from
        /// as the stream's first 8 bytes. Needs ``resources``. Without it a receiver's offset is
        /// taken as it is (within one session, as before) (`docs/PROTOCOL.md` §3.9).
        public static let restartResume: UInt32 = 1 << 4
        /// The SHA-256 after the bytes: a RESOURCE_OFFER whose SHA-256 is 32 zero bytes says
        /// that the sender hashes the file as it sends it, and the stream carries the whole
        /// file's SHA-256 after its last byte; the receiver checks it as it would the offer's,
        /// before anything is put in place. The sender starts at once instead of reading the
        /// whole file first. Needs ``restartResume`` (a receiver's claim of what it holds is
        /// what the sender checks its file against). Without it the offer carries the SHA-256
        /// (`docs/PROTOCOL.md` §3.9).
        public static let digestAfterBytes: UInt32 = 1 << 5
        /// The chunk root after the bytes: where the SHA-256 follows the bytes
        /// (``digestAfterBytes``), the 32 bytes after the file's last byte are its chunk root —
        /// the SHA-256 of its 1 MiB chunks' SHA-256s, as RESOURCE_HELD folds them — rather than
        /// the whole file's SHA-256. The receiver, which hashes every chunk it writes to say
        /// what it holds after a restart, then hashes each byte once instead of twice. Needs
        /// ``digestAfterBytes``. Without it the whole file's SHA-256 follows
        /// (`docs/PROTOCOL.md` §3.9).
        public static let chunkRootAfterBytes: UInt32 = 1 << 6
    }
    /// The four bytes that open every hello and accept: `GNMP`.
    static let magic: [UInt8] = Array("GNMP".utf8)
    /// The size of the big-endian length that precedes every frame.
    public static let lengthPrefixBytes = 4
    /// The default largest frame, counting the kind byte and the body.
    public static let defaultMaximumFrameLength = 64 * 1024
}

/// The kind byte that follows a frame's length.
enum FrameKind: UInt8 {
    case hello = 0x01
    case accept = 0x02
    case decline = 0x03
    case data = 0x04
    case heartbeat = 0x05
    case goodbye = 0x06
    case reveal = 0x07
    case streamOpen = 0x08
    case streamData = 0x09
    case streamWindow = 0x0A
    case streamClose = 0x0B
    case resourceOffer = 0x0C
    case resourceAnswer = 0x0D
    case resourceResult = 0x0E
    case resume = 0x0F
    case acknowledge = 0x10
    case resourceHeld = 0x11
}
