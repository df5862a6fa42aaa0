import Foundation

/// Moves frames between this program and others. The session works through this protocol
/// only; `MultipeerNIO` provides real TCP, `MultipeerTesting` an in-memory network.
///
/// A transport frames and carries; it decides nothing. Every connection it creates reports to
/// one ``ConnectionHandler`` in this order: ``ConnectionHandler/connectionDidOpen(_:)`` exactly
/// once, before anything else; ``ConnectionHandler/connection(_:didReceive:)`` for each frame,
/// in order and never concurrently; ``ConnectionHandler/connection(_:didCloseWith:)`` exactly
/// once, last. A transport must not spend a thread per connection.
public protocol Transport: Sendable {
    /// Whether every connection proves the key of the peer at its other end
    /// (``Connection/provenPeer``) before its first frame: the session then refuses a peer
    /// whose claimed identity is not the one proved. False for transports made for tests.
    var provesPeers: Bool { get }

    /// Accepts connections on `port` (0 lets the system choose) until the listener is closed.
    ///
    /// - Parameters:
    ///   - port: the port to listen on, or 0.
    ///   - options: limits for every accepted connection.
    ///   - makeHandler: called once per accepted connection, before it opens, for its handler.
    /// - Throws: ``MultipeerError/Code/listenFailed``.
    func listen(
        port: Int,
        options: LinkOptions,
        makeHandler: @escaping @Sendable () -> any ConnectionHandler
    ) async throws(MultipeerError) -> any Listener

    /// Connects to `endpoint`; `handler` has seen ``ConnectionHandler/connectionDidOpen(_:)``
    /// by the time this returns.
    ///
    /// - Parameters:
    ///   - timeout: how long the endpoint may take to answer at all (a TCP connect).
    ///   - openTimeout: how long the connection may take to open once the endpoint answered
    ///     (a secure handshake, which a busy host may hold unread until it has a place for it);
    ///     never less than `timeout`. A transport that opens at once ignores it.
    /// - Throws: ``MultipeerError/Code/connectionFailed`` when the endpoint cannot be reached
    ///   within `timeout`.
    func connect(
        to endpoint: Endpoint,
        options: LinkOptions,
        timeout: Duration,
        openTimeout: Duration,
        handler: any ConnectionHandler
    ) async throws(MultipeerError) -> any Connection

    /// Queues `frame` on each of `connections` (all created by this transport), as if by
    /// ``Connection/send(_:)`` on each: for every connection the frame keeps its place among
    /// that connection's frames. A transport may share one copy of the bytes among all of them
    /// and spread the writing out so that other connections are not kept waiting; the default
    /// sends to each in turn.
    func broadcast(_ frame: EncodedFrame, to connections: [any Connection])

    /// The time of this transport's world, which its sessions keep unless given another
    /// (``SessionClock``): the real clock for a network of the operating system's
    /// (`MultipeerPOSIX`'s `SystemClock`, which ticks on a thread of its own); a simulated
    /// network's own clock for one that simulates time as well. The core has no clock of its own
    /// that ticks: every transport says which it keeps.
    var clock: any SessionClock { get }

    /// The addresses of this machine's interfaces that are up, as its world reports them now:
    /// a session tries a peer's addresses on the same network as one of these first. The core
    /// reads no interfaces of its own (an operating system's are `MultipeerPOSIX`'s
    /// `NetworkInterfaces`); none by default, which leaves addresses in the order given.
    func localInterfaces() -> [InterfaceAddress]

    /// A disk for the resources of one session (``ResourceFiles``), made once per session,
    /// which keeps it: the files it sends, receives and keeps for a restart. The core touches no
    /// file of its own (an operating system's disk is `MultipeerPOSIX`'s `POSIXResourceFiles`);
    /// by default a disk that has no files, on which sending or accepting a resource fails.
    func makeResourceFiles() -> any ResourceFiles
}

extension Transport {
    /// Connects to `endpoint`, reaching it and opening the connection within `timeout` each.
    public func connect(
        to endpoint: Endpoint, options: LinkOptions, timeout: Duration, handler: any ConnectionHandler
    ) async throws(MultipeerError) -> any Connection {
        try await connect(to: endpoint, options: options, timeout: timeout, openTimeout: timeout, handler: handler)
    }

    public func broadcast(_ frame: EncodedFrame, to connections: [any Connection]) {
        for connection in connections { connection.send(frame) }
    }
}

/// Limits that apply to one connection.
public struct LinkOptions: Sendable, Hashable {
    /// The largest frame accepted from the other side, counting the kind byte and the body.
    public var maximumFrameLength: Int
    /// Bytes queued for the other side above which the connection reports itself unwritable
    /// (backlogged): the other side is not reading as fast as this side sends.
    public var backlogHighWaterMark: Int
    /// Bytes queued below which a backlogged connection reports itself writable again.
    public var backlogLowWaterMark: Int
    /// The most bytes that may wait for the other side: a send that would queue more closes the
    /// connection with ``MultipeerError/Code/peerNotReading``, so memory per connection is bounded.
    public var maximumQueuedBytes: Int
    /// The most bytes one flush hands the connection's lower layers, if there is a limit: more
    /// are written in flushed pieces of at most this many bytes. Over TLS the encrypting
    /// handler's buffer keeps, for the connection's life, the size of the largest flush it ever
    /// encrypted (swift-nio-ssl preserves its outbound buffer whole), so one welcome-sized write
    /// costs every connection its pages for good; a limit keeps a crowd of message-only links
    /// small, at a record and a system call more per piece. Nil (the default): no limit, for
    /// links that carry streams and files.
    public var maximumFlushBytes: Int?

    /// Options with the default marks: unwritable above 1 MiB queued, writable again below
    /// 256 KiB, closed above 2 MiB; no flush limit.
    public init(
        maximumFrameLength: Int = WireProtocol.defaultMaximumFrameLength,
        backlogLowWaterMark: Int = 256 * 1024,
        backlogHighWaterMark: Int = 1024 * 1024,
        maximumQueuedBytes: Int = 2 * 1024 * 1024,
        maximumFlushBytes: Int? = nil
    ) {
        self.maximumFlushBytes = maximumFlushBytes.map { max($0, 1) }
        self.maximumFrameLength = maximumFrameLength
        self.backlogLowWaterMark = backlogLowWaterMark
        self.backlogHighWaterMark = max(backlogHighWaterMark, backlogLowWaterMark + 1)
        self.maximumQueuedBytes = max(maximumQueuedBytes, self.backlogHighWaterMark)
    }
}

/// An open listening socket (or its in-memory stand-in).
public protocol Listener: Sendable {
    /// The port connections are accepted on.
    var port: Int { get }
    /// Stops accepting; connections already accepted stay open.
    func close() async
}

/// One connection to another program, as seen by the session.
public protocol Connection: AnyObject, Sendable {
    /// The other side's address, for messages to people.
    var remoteDescription: String { get }
    /// The other side's IP address (or host name) without the port: the key of per-address
    /// limits. Transports keep it rather than read it out of ``remoteDescription`` each time:
    /// the session counts connections per address on every invitation.
    var remoteAddress: String { get }
    /// The key the other side proved it holds, in a handshake below the frames (TLS); nil for
    /// a transport that proves nothing (see ``Transport/provesPeers``). A transport that proves
    /// peers has it before the first frame arrives.
    var provenPeer: PeerFingerprint? { get }
    /// The owner key whose endorsement of ``provenPeer`` the other side showed in the same
    /// handshake (see ``PeerEndorsement``); nil when it showed none, or one of another key.
    var provenOwner: PeerFingerprint? { get }
    /// The fingerprint of the key this side proves on the connection; nil for a transport that
    /// proves nothing.
    var localKey: PeerFingerprint? { get }
    /// Queues `frame` for sending; never blocks. Frames go out in the order they were queued.
    /// A frame that would queue more than ``LinkOptions/maximumQueuedBytes`` is dropped and the
    /// connection closed with ``MultipeerError/Code/peerNotReading``.
    func send(_ frame: EncodedFrame)
    /// Queues the STREAM_DATA frames of stream `id` that carry `bytes`, at most `chunkLength`
    /// bytes to a frame, as ``send(_:)`` of each frame in turn would; calls `written` (on any
    /// thread, perhaps before this returns) once the connection has written them to the layer
    /// below it, or dropped them. A transport may frame them straight into a buffer of its own
    /// (the default encodes each with ``FrameCodec`` and calls `written` once they are queued).
    func sendStreamData(id: UInt32, _ bytes: Data, chunkLength: Int, written: @escaping @Sendable () -> Void)
    /// Sends what is queued, then closes; frames sent after this are dropped. The handler hears
    /// ``ConnectionHandler/connection(_:didCloseWith:)`` with a nil error.
    func close()
    /// Closes at once and sends nothing more: what is queued and not yet on the wire is
    /// dropped. For an invitation given up before its host answered, whose HELLO may still wait
    /// behind a handshake below the frames (TLS) that the host has not answered: were it sent
    /// when the host wakes, the host would take it for a new link of the inviter. The handler
    /// hears ``ConnectionHandler/connection(_:didCloseWith:)`` with a nil error.
    func abort()
    /// Stops reading what the other side sends until ``resumeReading()``: its bytes wait below
    /// (in the system's buffers, for TCP) and no frame reaches the handler; a close still does.
    /// Called on the thread that opened the connection, before it returns from
    /// ``ConnectionHandler/connectionDidOpen(_:)``, nothing is read at all — how a session holds
    /// an accepted connection until a handshake place is free.
    func pauseReading()
    /// Reads again, beginning with what waited.
    func resumeReading()
}

extension Transport {
    /// False: a transport proves nothing unless it says so.
    public var provesPeers: Bool { false }

    /// None: addresses are tried in the order given.
    public func localInterfaces() -> [InterfaceAddress] { [] }

    /// A disk that has no files: every resource is refused.
    public func makeResourceFiles() -> any ResourceFiles { NoResourceFiles() }
}

extension Connection {
    /// ``close()``: a transport that sends each frame as it is queued has nothing to drop.
    public func abort() { close() }
    /// None: a connection of a transport that proves nothing.
    public var provenPeer: PeerFingerprint? { nil }
    /// None: a connection of a transport that proves nothing.
    public var provenOwner: PeerFingerprint? { nil }
    /// What the other side proved: its key and the owner that endorsed it; nil for a transport
    /// that proves nothing.
    public var proof: PeerProof? { provenPeer.map { PeerProof(key: $0, owner: provenOwner) } }
    /// None: a connection of a transport that proves nothing.
    public var localKey: PeerFingerprint? { nil }

    /// The other side's IP address (or host name) without the port, read out of
    /// ``remoteDescription`` (`HOST:PORT` or `[IPV6]:PORT`) on every call.
    public var remoteAddress: String {
        RemoteAddress.host(of: remoteDescription)
    }
}

/// Reads the host out of a connection's `HOST:PORT` description.
public enum RemoteAddress {
    /// The host of `description` (`HOST:PORT`, or `[IPV6]:PORT`), or the whole when it has no port.
    public static func host(of description: String) -> String {
        if description.hasPrefix("["), let close = description.firstIndex(of: "]") {
            return String(description[description.index(after: description.startIndex)..<close])
        }
        guard description.filter({ $0 == ":" }).count == 1, let colon = description.lastIndex(of: ":") else { return description }
        return String(description[..<colon])
    }

    /// The network a limit per address counts `address` (an IP address without port) in: an
    /// IPv4 address is its own; an IPv6 address counts with its whole /64 (`2001:db8:0:1::/64`),
    /// since one machine may take any address of its /64 without asking anyone. An IPv4 address
    /// mapped into IPv6 (`::ffff:10.0.0.2`) counts as the IPv4 address; anything else is its
    /// own text.
    public static func limitGroup(of address: String) -> String {
        guard let parsed = IPAddressBytes(address) else { return address }
        let bytes = parsed.bytes
        switch bytes.count {
        case 16 where bytes.prefix(12) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff]:
            return bytes.suffix(4).map(String.init).joined(separator: ".")
        case 16:
            let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
            return groups.joined(separator: ":") + "::/64"
        default:
            return address
        }
    }
}

/// Receives what happens on one connection; see ``Transport`` for the order of calls.
///
/// Calls come from the transport's threads; implementations must not block them.
public protocol ConnectionHandler: AnyObject, Sendable {
    /// The connection is open; nothing has been received yet.
    func connectionDidOpen(_ connection: any Connection)
    /// One complete frame arrived.
    func connection(_ connection: any Connection, didReceive frame: Frame)
    /// Every frame of one read from the network has been delivered
    /// (``connection(_:didReceive:)``): work a handler can do once for all of them (waking the
    /// reader of a stream) may wait until here. Same threads and order as the other calls; a
    /// transport that never calls it leaves the handler to do that work at each frame.
    func connectionDidFinishDelivering(_ connection: any Connection)
    /// The connection is closed: `error` is nil after an orderly close by either side, or says
    /// what went wrong (a malformed or oversized frame, a reset).
    func connection(_ connection: any Connection, didCloseWith error: MultipeerError?)
    /// The connection became unwritable (`false`: more than ``LinkOptions/backlogHighWaterMark``
    /// bytes wait for the other side) or writable again (`true`: fewer than
    /// ``LinkOptions/backlogLowWaterMark``). Comes between open and close, in the same order
    /// and on the same threads as the other calls; a connection starts writable.
    func connection(_ connection: any Connection, didChangeWritability isWritable: Bool)
}

extension ConnectionHandler {
    /// Ignores writability: handlers that do not pace their sends need not implement it.
    public func connection(_ connection: any Connection, didChangeWritability isWritable: Bool) {}

    /// Nothing: handlers that do their work at each frame need not implement it.
    public func connectionDidFinishDelivering(_ connection: any Connection) {}
}
