#if canImport(Glibc)
import Glibc
#endif

/// Plain blocking TCP sockets on loopback, for the baselines: nothing between the program and
/// the kernel but the system calls themselves.
final class RawSocket: Sendable {
    let descriptor: Int32

    init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { Glibc.close(descriptor) }

    /// A socket listening on 127.0.0.1 on a port the system picks; returns it and the port.
    static func listen(backlog: Int32 = 4096) throws(RawSocketError) -> (RawSocket, Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawSocketError("socket") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, Glibc.listen(fd, backlog) == 0 else { Glibc.close(fd); throw RawSocketError("bind/listen") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        getsockname(fd, withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { $0 } }, &length)
        return (RawSocket(descriptor: fd), Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A connection to 127.0.0.1:`port`, with Nagle's algorithm off (as the transport's) and,
    /// when given, a receive buffer of `receiveBuffer` bytes (a small one makes a reader that
    /// never reads fill up soon).
    /// With `source`, the connection comes from that loopback address (127.0.0.2, say): another
    /// "machine" as far as the host can tell.
    static func connect(port: Int, receiveBuffer: Int32? = nil, source: String? = nil) throws(RawSocketError) -> RawSocket {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawSocketError("socket") }
        if let source {
            var from = sockaddr_in()
            from.sin_family = sa_family_t(AF_INET)
            from.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &from) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { Glibc.close(fd); throw RawSocketError("bind") }
        }
        if var size = receiveBuffer { setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { Glibc.close(fd); throw RawSocketError("connect") }
        let socket = RawSocket(descriptor: fd)
        socket.setNoDelay()
        return socket
    }

    /// The next connection waiting on this listening socket.
    func accept() throws(RawSocketError) -> RawSocket {
        let fd = Glibc.accept(descriptor, nil, nil)
        guard fd >= 0 else { throw RawSocketError("accept") }
        let socket = RawSocket(descriptor: fd)
        socket.setNoDelay()
        return socket
    }

    func setNoDelay() {
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Whether the other side has not closed the connection (a non-blocking peek).
    var isOpen: Bool {
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count > 0 || (count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
    }

    /// Reads what has arrived into `buffer` (blocking until something does); false at end of
    /// stream or on an error.
    func readSome(_ buffer: inout [UInt8]) -> Bool {
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            return count > 0
        }
    }

    /// Writes all of `bytes`; false when the connection is gone.
    func writeAll(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = send(descriptor, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if written < 0, errno == EINTR { continue }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }

    /// Reads exactly `buffer.count` bytes; false at end of stream or on an error.
    func readExactly(_ buffer: UnsafeMutableRawBufferPointer) -> Bool {
        var offset = 0
        while offset < buffer.count {
            let count = Glibc.read(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return false }
            offset += count
        }
        return true
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}

/// A baseline's socket call failed.
struct RawSocketError: Error, CustomStringConvertible {
    let call: String
    let code: Int32
    init(_ call: String) {
        self.call = call
        code = errno
    }
    var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
}
