#if canImport(Glibc)
import Glibc
#endif

/// Whether something accepts connections on a Unix socket: connects and closes at once, never
/// waiting (the socket is non-blocking, so a listener that hangs with a full backlog is `busy`).
enum UnixSocketProbe {
    /// How a connection attempt went.
    enum Outcome: Sendable, Equatable {
        /// Something accepted it.
        case accepted
        /// There is no socket there.
        case missing
        /// The socket exists but nobody listens on it.
        case refused
        /// Something listens but takes no more connections now (its backlog is full: it hangs).
        case busy
        /// It failed otherwise (permission denied…), with the system's words.
        case failed(String)
    }

    /// Tries `address` (`.other` addresses cannot be tried and give `.failed`).
    static func connect(to address: SystemBusAddress) -> Outcome {
        let name: [UInt8]
        switch address {
        case .path(let path): name = Array(path.utf8)
        case .abstract(let abstract): name = [0] + Array(abstract.utf8)
        case .other: return .failed("not a Unix socket address")
        }
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: socketAddress.sun_path)
        guard name.count < capacity else { return .failed("the socket's path is too long") }
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { raw in
            for (offset, byte) in name.enumerated() { raw[offset] = byte }
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else { return .failed(String(cString: strerror(errno))) }
        defer { close(descriptor) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + name.count + (name.first == 0 ? 0 : 1))
        let result = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, length) }
        }
        guard result != 0 else { return .accepted }
        switch errno {
        case ENOENT: return .missing
        case ECONNREFUSED: return .refused
        case EAGAIN, EINPROGRESS: return .busy
        default: return .failed(String(cString: strerror(errno)))
        }
    }
}
