#if canImport(Darwin)
import Darwin
private let systemConnect = Darwin.connect
private let systemSend = Darwin.send
private let systemClose = Darwin.close
private let noSignal: Int32 = 0
#elseif canImport(Glibc)
import Glibc
private let systemConnect = Glibc.connect
private let systemSend = Glibc.send
private let systemClose = Glibc.close
private let noSignal = Int32(MSG_NOSIGNAL)
#endif
import Synchronization

/// A plain blocking TCP client to 127.0.0.1, for sending bytes no well-behaved peer would send.
/// Every read gives up after a few seconds, so tests cannot hang on it.
public final class RawSocket: Sendable {
    public enum ReadEnd: Equatable, Sendable {
        /// The other side closed in an orderly way.
        case closed
        /// The other side reset the connection.
        case reset
        /// Nothing happened within the read timeout.
        case timedOut
        case failed(Int32)
    }

    public struct Failure: Error, CustomStringConvertible {
        public let call: String
        public let code: Int32
        public var description: String { "\(call) failed with errno \(code)" }
    }

    private let state: Mutex<Int32>
    /// The socket, or -1 once closed. Calls on one socket are not meant to overlap.
    private var descriptor: Int32 { state.withLock { $0 } }

    /// Connects to 127.0.0.1:`port`.
    ///
    /// - Parameters:
    ///   - sourceAddress: the local address to connect from (any of 127.0.0.0/8, to look like
    ///     another machine to a limit per address).
    ///   - receiveBufferBytes: a small receive buffer, set before connecting, so that a client
    ///     that does not read leaves the bytes queued in the other side quickly.
    public init(port: Int, from sourceAddress: String = "127.0.0.1", readTimeoutSeconds: Int = 5, receiveBufferBytes: Int? = nil) throws {
        let descriptor = try Self.tcpSocket()
        state = Mutex(descriptor)
        var timeout = timeval(tv_sec: readTimeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if var size = receiveBufferBytes.map(Int32.init) {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if sourceAddress != "127.0.0.1" {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(sourceAddress)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                let code = errno
                close()
                throw Failure(call: "bind", code: code)
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                systemConnect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close()
            throw Failure(call: "connect", code: code)
        }
    }

    deinit { close() }

    /// A new IPv4 TCP socket.
    static func tcpSocket() throws -> Int32 {
        #if os(Linux)
        let stream = Int32(SOCK_STREAM.rawValue)
        #else
        let stream = SOCK_STREAM
        #endif
        let descriptor = socket(AF_INET, stream, 0)
        guard descriptor >= 0 else { throw Failure(call: "socket", code: errno) }
        return descriptor
    }

    public func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { systemSend(descriptor, $0.baseAddress, $0.count, noSignal) }
            guard written > 0 else { throw Failure(call: "send", code: errno) }
            offset += written
        }
    }

    /// Stops sending: the other side reads end of file.
    public func shutdownWriting() {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Reads until the other side closes, resets, or the timeout passes.
    ///
    /// Reads block, so every read runs on a thread of its own, off Swift's cooperative pool: a
    /// blocked read must not stall other tests' tasks (the pool has one thread per core).
    public func readToEnd() async -> (bytes: [UInt8], end: ReadEnd) {
        let (bytes, end) = await read(upTo: .max)
        return (bytes, end ?? .closed)
    }

    /// Reads what arrives until `count` bytes have come (`end` is then nil), the other side
    /// closes, or the timeout passes.
    public func read(upTo count: Int) async -> (bytes: [UInt8], end: ReadEnd?) {
        await offCooperativePool { self.blockingRead(upTo: count) }
    }

    /// Reads what has arrived, waiting for the first byte (up to the timeout); at most 64 KiB.
    public func readSome() async -> (bytes: [UInt8], end: ReadEnd?) {
        await offCooperativePool { self.blockingRead(upTo: 1, chunkSize: 65_536) }
    }

    /// Reads until the other side closes, resets, or the timeout passes, at most 64 KiB at a time
    /// with `pause` between reads: a slow reader, on a thread of its own so that its pace is its
    /// own whatever else the process does.
    public func readSlowly(pausing pause: Duration) async -> (bytes: [UInt8], end: ReadEnd) {
        let microseconds = UInt32(pause.components.seconds * 1_000_000 + pause.components.attoseconds / 1_000_000_000_000)
        return await offCooperativePool {
            var received: [UInt8] = []
            while true {
                let (bytes, end) = self.blockingRead(upTo: 1, chunkSize: 65_536)
                received += bytes
                if let end { return (received, end) }
                usleep(microseconds)
            }
        }
    }

    /// Reads one whole frame (length prefix, kind byte, body), or nil when the other side closes
    /// or nothing comes within the timeout.
    public func readFrame() async -> [UInt8]? {
        await offCooperativePool {
            let prefix = self.blockingRead(upTo: 4)
            guard prefix.bytes.count == 4 else { return nil }
            let length = prefix.bytes.reduce(0) { $0 << 8 | Int($1) }
            let body = self.blockingRead(upTo: length)
            guard body.bytes.count == length else { return nil }
            return prefix.bytes + body.bytes
        }
    }

    /// Reads until at least `count` bytes have come, with reads of at most `chunkSize` bytes
    /// (never more than `count` unless `chunkSize` allows more).
    private func blockingRead(upTo count: Int, chunkSize: Int? = nil) -> (bytes: [UInt8], end: ReadEnd?) {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: chunkSize ?? 65_536)
        while received.count < count {
            let wanted = chunkSize ?? min(chunk.count, count - received.count)
            let got = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, wanted, 0) }
            if got > 0 {
                received += chunk[..<got]
            } else if got == 0 {
                return (received, .closed)
            } else {
                switch errno {
                case EINTR: continue
                case ECONNRESET: return (received, .reset)
                case EAGAIN, EWOULDBLOCK: return (received, .timedOut)
                case let code: return (received, .failed(code))
                }
            }
        }
        return (received, nil)
    }

    /// Closes with a reset (RST) instead of an orderly close.
    public func reset() {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        close()
    }

    /// Closes the socket (an orderly close, with no goodbye from the protocol). Idempotent.
    public func close() {
        state.withLock { descriptor in
            if descriptor >= 0 {
                _ = systemClose(descriptor)
                descriptor = -1
            }
        }
    }
}
