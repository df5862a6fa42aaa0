import Foundation

/// One unit of the wire protocol. Frames only carry; the session decides what they mean.
public enum Frame: Sendable, Hashable {
    /// The inviter introduces itself and asks to join (first frame of a connection).
    case hello(Hello)
    /// The advertiser accepts the invitation and introduces itself.
    case accept(Accept)
    /// The advertiser turns the invitation down; the connection closes after it.
    case decline(Decline)
    /// Application data: a typed message when `messageType` is set, raw bytes when it is nil.
    case data(messageType: String?, payload: Data)
    /// "I am still here", sent when nothing else was sent for a heartbeat interval.
    case heartbeat
    /// The sender is leaving on purpose; the connection closes after it.
    case goodbye(reason: String?)
    /// The inviter's verification-code nonce, which its HELLO committed to, sent as soon as
    /// the ACCEPT arrives (see ``VerificationCode``), with its answer to the ACCEPT's
    /// challenge (empty when there was none; see ``InvitationChallenge``).
    case reveal(nonce: [UInt8], answer: Data = Data())
    /// The sender opens the byte stream `id` (odd when the inviter opens it, even when the
    /// advertiser does) named `name`, and will write to it.
    case streamOpen(id: UInt32, name: String)
    /// Bytes of the stream `id`, within the credit the reader granted (never empty).
    case streamData(id: UInt32, bytes: Data)
    /// The reader of stream `id` grants its writer `credit` more bytes.
    case streamWindow(id: UInt32, credit: UInt32)
    /// Stream `id` ends: finished by its writer, or reset by either side with a reason.
    case streamClose(id: UInt32, end: StreamEnd, reason: String?)
    /// The sender offers a file (a resource) and opens the stream that will carry its bytes
    /// once the receiver accepts.
    case resourceOffer(ResourceOffer)
    /// The receiver of the resource `transfer` accepts it from byte `offset` on (what it
    /// already holds of an interrupted transfer, else 0), or declines it with a reason.
    case resourceAnswer(transfer: [UInt8], verdict: ResourceVerdict, offset: UInt64, reason: String?)
    /// The receiver of the resource `transfer` saved it (its size and SHA-256 checked) or
    /// could not, with a reason.
    case resourceResult(transfer: [UInt8], outcome: ResourceOutcome, reason: String?)
    /// What the receiver of the resource `transfer` holds, the bytes before the offset of the
    /// accepting answer it sends next: cut in chunks of `chunkBytes` (the last may be short),
    /// their SHA-256s hash to `root`, so that the sender checks them against its own file
    /// before it skips them (``WireProtocol/Feature/restartResume``, `docs/PROTOCOL.md` §3.9).
    case resourceHeld(ResourceHeld)
    /// The sender's side of a message resume, its first frame on a link where both sides
    /// announced ``WireProtocol/Feature/resume`` (see `docs/PROTOCOL.md` §5.5).
    case resume(Resume)
    /// The sender has received `received` of the other side's messages in their pairing, so
    /// the other side need keep them no longer (``WireProtocol/Feature/resume``).
    case acknowledge(received: UInt64)

    /// How a receiver answers a resource offer.
    public enum ResourceVerdict: UInt8, Sendable {
        /// Send the bytes from the answer's offset on.
        case accept = 0
        /// Do not send it; the reason says why.
        case decline = 1
    }

    /// How a resource transfer ended for its receiver.
    public enum ResourceOutcome: UInt8, Sendable {
        /// Every byte arrived, matched the offer's size and hash, and is in place.
        case saved = 0
        /// It could not be saved; the reason says why.
        case failed = 1
    }

    /// A file offered to the receiver (see `docs/PROTOCOL.md` §3.9).
    public struct ResourceOffer: Sendable, Hashable {
        /// The number of bytes of a transfer id.
        public static let transferBytes = 16
        /// The number of bytes of a SHA-256 digest.
        public static let digestBytes = 32

        /// The stream that carries the bytes (an id of the sender's, as in STREAM_OPEN).
        public var streamID: UInt32
        /// The transfer's random id, the same when an interrupted transfer is offered again.
        public var transfer: [UInt8]
        /// The file's size in bytes.
        public var size: UInt64
        /// The SHA-256 digest of the whole file; 32 zero bytes when it follows the bytes
        /// (``WireProtocol/Feature/digestAfterBytes``).
        public var digest: [UInt8]
        /// The file's name (a ``ResourceName``: never a path).
        public var name: String

        public init(streamID: UInt32, transfer: [UInt8], size: UInt64, digest: [UInt8], name: String) {
            self.streamID = streamID
            self.transfer = transfer
            self.size = size
            self.digest = digest
            self.name = name
        }

        /// The digest of an offer whose SHA-256 follows the bytes: 32 zero bytes.
        public static let digestAfterBytes = [UInt8](repeating: 0, count: digestBytes)

        /// Whether the SHA-256 follows the bytes (``WireProtocol/Feature/digestAfterBytes``).
        public var digestFollows: Bool { digest == Self.digestAfterBytes }
    }

    /// What the receiver of a resource holds of it (see `docs/PROTOCOL.md` §3.9).
    public struct ResourceHeld: Sendable, Hashable {
        /// The number of bytes of the root.
        public static let rootBytes = 32

        /// The transfer it is about.
        public var transfer: [UInt8]
        /// The size of a chunk (the last chunk of the file may be shorter).
        public var chunkBytes: UInt32
        /// How many chunks the bytes held make (the last may be short).
        public var chunks: UInt64
        /// The SHA-256 of those chunks' SHA-256s, one after another.
        public var root: [UInt8]

        public init(transfer: [UInt8], chunkBytes: UInt32, chunks: UInt64, root: [UInt8]) {
            self.transfer = transfer
            self.chunkBytes = chunkBytes
            self.chunks = chunks
            self.root = root
        }
    }

    /// What a side says first on a link with message resume: who it is this time, whom it paired
    /// with before, and how much of that peer's messages it has.
    public struct Resume: Sendable, Hashable {
        /// The sender session's incarnation: a random number, new for every ``Session``.
        public var incarnation: UInt64
        /// The incarnation of the other side that the sender's count belongs to, or 0 when the
        /// sender has no pairing with it to go on (it never met it, forgot it, or gave up on it).
        public var knownIncarnation: UInt64
        /// How many of the other side's messages the sender received in that pairing.
        public var received: UInt64

        public init(incarnation: UInt64, knownIncarnation: UInt64, received: UInt64) {
            self.incarnation = incarnation
            self.knownIncarnation = knownIncarnation
            self.received = received
        }
    }

    /// How a stream ends on the wire.
    public enum StreamEnd: UInt8, Sendable {
        /// The writer wrote everything it meant to.
        case finished = 0
        /// Either side gave up on the stream; the reason says why.
        case reset = 1
    }

    /// What a connecting inviter says first.
    public struct Hello: Sendable, Hashable {
        /// The protocol version the inviter speaks.
        public var version: UInt16
        /// The inviter.
        public var peer: PeerID
        /// How long the inviter will wait for an answer, in whole milliseconds.
        public var invitationTimeoutMilliseconds: UInt32
        /// The inviter's commitment to its verification-code nonce
        /// (``VerificationCode/commitment(to:)``): 32 bytes from version 2 on, empty in a
        /// version 1 HELLO.
        public var codeCommitment: [UInt8]
        /// The features the inviter supports (``WireProtocol/Feature``), from version 3 on;
        /// 0 in an older HELLO.
        public var features: UInt32
        /// Application bytes that travel with the invitation (may be empty).
        public var context: Data

        public init(
            version: UInt16 = WireProtocol.version, peer: PeerID, invitationTimeoutMilliseconds: UInt32, codeCommitment: [UInt8],
            features: UInt32 = WireProtocol.features, context: Data
        ) {
            self.features = features
            self.version = version
            self.peer = peer
            self.invitationTimeoutMilliseconds = invitationTimeoutMilliseconds
            self.codeCommitment = codeCommitment
            self.context = context
        }
    }

    /// The advertiser's yes.
    public struct Accept: Sendable, Hashable {
        /// The protocol version the advertiser speaks.
        public var version: UInt16
        /// The advertiser.
        public var peer: PeerID
        /// The advertiser's verification-code nonce (``VerificationCode/nonce()``): 32 bytes
        /// from version 2 on, empty in a version 1 ACCEPT.
        public var codeNonce: [UInt8]
        /// The advertiser's challenge to the inviter (``InvitationChallenge/bytes``), which the
        /// inviter answers in its REVEAL; empty when there is none.
        public var challenge: Data
        /// The features the advertiser supports (``WireProtocol/Feature``), from version 3 on;
        /// 0 in an older ACCEPT.
        public var features: UInt32

        public init(
            version: UInt16 = WireProtocol.version, peer: PeerID, codeNonce: [UInt8], features: UInt32 = WireProtocol.features, challenge: Data = Data()
        ) {
            self.features = features
            self.version = version
            self.peer = peer
            self.codeNonce = codeNonce
            self.challenge = challenge
        }
    }

    /// The advertiser's no.
    public struct Decline: Sendable, Hashable {
        /// Why, in machine terms.
        public enum Cause: UInt8, Sendable {
            /// The advertiser's policy said no; ``reason`` may say why.
            case refused = 0
            /// The versions do not match.
            case unsupportedVersion = 1
            /// The advertiser did not decide before the invitation expired.
            case timedOut = 2
        }

        /// Why, in machine terms.
        public var cause: Cause
        /// Why, in words for people (for example "game is full").
        public var reason: String?

        public init(cause: Cause, reason: String?) {
            self.cause = cause
            self.reason = reason
        }
    }
}
