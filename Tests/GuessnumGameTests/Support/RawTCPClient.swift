#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A bare TCP client on loopback, for playing a peer that vanishes without a goodbye.
final class RawTCPClient: Sendable {
    private let descriptor: Int32
    private let closed = Atomic(false)

    init(port: Int) throws {
        #if canImport(Glibc)
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw TestFailure("socket() failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(descriptor)
            throw TestFailure("connect() to 127.0.0.1:\(port) failed")
        }
    }

    func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            #if canImport(Glibc)
            _ = send(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
            #else
            _ = send(descriptor, buffer.baseAddress, buffer.count, 0)
            #endif
        }
    }

    /// Closes the socket at once, with no goodbye.
    func vanish() {
        if !closed.exchange(true, ordering: .relaxed) { close(descriptor) }
    }

    deinit {
        vanish()
    }
}
