import NIOSSL

/// Short reasons for TLS failures, for sentences.
enum TLSErrorText {
    static func describe(_ error: NIOSSLError) -> String {
        switch error {
        case .uncleanShutdown: "the other side closed the connection during the handshake"
        case .handshakeFailed(let underlying): describe(underlying)
        default: "\(error)"
        }
    }

    static func describe(_ error: BoringSSLError) -> String {
        switch error {
        case .sslError(let stack): stack.map { "\($0)" }.joined(separator: "; ")
        default: "\(error)"
        }
    }
}
