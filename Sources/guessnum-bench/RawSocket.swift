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

    /// A connection to 127.0.0.1:`port`, with Nagle's algorithm off (as the transport's).
    static func connect(port: Int) throws(RawSocketError) -> RawSocket {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawSocketError("socket") }
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

    /// Writes all of `bytes`; false when the connection is gone.
    func writeAll(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
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
