#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Multipeer
import NIOCore
import NIOSSL
import NIOPosix

/// Turns SwiftNIO and system errors into the library's one-sentence ``Multipeer/MultipeerError``s.
enum NIOErrorMapping {
    /// Why `connect` to `endpoint` failed.
    static func connectFailure(_ error: any Error, endpoint: Endpoint, timeout: Duration) -> MultipeerError {
        if let error = error as? MultipeerError { return error }
        if isUnanswered(error) { return MultipeerError.hostNotAnswering([endpoint], within: timeout).causedBy(error) }
        return MultipeerError.connectionFailed(endpoint, connectReason(error, host: endpoint.host)).causedBy(error)
    }

    /// Whether a connect failed because nothing answered in time (rather than a refusal or an
    /// unreachable network): what a firewall that drops the connection looks like.
    private static func isUnanswered(_ error: any Error) -> Bool {
        switch error {
        case let error as NIOConnectionError:
            return error.connectionErrors.first.map { isUnanswered($0.error) } ?? false
        case ChannelError.connectTimeout:
            return true
        case let error as IOError:
            return error.errnoCode == ETIMEDOUT
        default:
            return false
        }
    }

    /// Why `listen` on `port` (at `host`) failed.
    static func listenFailure(_ error: any Error, port: Int, host: String) -> MultipeerError {
        if let error = error as? MultipeerError { return error }
        let reason: String
        switch error {
        case let error as IOError:
            switch error.errnoCode {
            case EADDRINUSE: reason = "address already in use"
            case EACCES: reason = "permission denied (ports below 1024 need special rights)"
            case EADDRNOTAVAIL: reason = "\(host) is not an address of this machine"
            default: reason = systemMessage(error.errnoCode)
            }
        case is SocketAddressError, is SocketAddressError.UnknownHost:
            reason = "the address \(host) could not be resolved"
        default:
            reason = "\(error)"
        }
        return MultipeerError.listenFailed(port: port, reason).causedBy(error)
    }

    /// Whether binding `::` failed for a reason that binding `0.0.0.0` might not share: anything
    /// but a port in use or a privileged port.
    static func mayMeanNoIPv6(_ error: any Error) -> Bool {
        guard let error = error as? IOError else { return false }
        return error.errnoCode != EADDRINUSE && error.errnoCode != EACCES
    }

    /// The error that ends an open connection, for ``Multipeer/ConnectionHandler/connection(_:didCloseWith:)``.
    ///
    /// - Parameter secured: whether the connection's TLS handshake had completed. A TLS error
    ///   before that is a handshake that failed; after it, the connection ending badly (most
    ///   often a peer that went away without closing TLS: a crash, or a reset).
    static func connectionError(_ error: any Error, secured: Bool = false) -> MultipeerError {
        let mapped = closingError(error, secured: secured)
        return error is MultipeerError || mapped.underlying != nil ? mapped : mapped.causedBy(error)
    }

    /// The sentence of ``connectionError(_:secured:)``, without the cause.
    private static func closingError(_ error: any Error, secured: Bool) -> MultipeerError {
        switch error {
        case let error as MultipeerError:
            return error
        case ByteToMessageDecoderError.dataReceivedInErrorState(let underlying, _):
            return connectionError(underlying, secured: secured)
        case NIOSSLError.uncleanShutdown where secured:
            return .connectionClosed("unexpectedly (the other side went away without closing the encrypted channel)")
        case let error as NIOSSLError where secured:
            return .connectionClosed("unexpectedly (the encrypted channel failed: \(TLSErrorText.describe(error)))")
        case let error as IOError:
            let what: String
            switch error.errnoCode {
            case ECONNRESET: what = "the other side reset it"
            case EPIPE: what = "the other side had stopped reading"
            case ETIMEDOUT: what = "the network stopped answering"
            case EHOSTUNREACH, ENETUNREACH: what = "the other side became unreachable"
            default: what = systemMessage(error.errnoCode)
            }
            return .connectionClosed("unexpectedly (\(what))")
        case ChannelError.eof:
            return .connectionClosed("unexpectedly (the other side went away)")
        case let error as NIOSSLError:
            return .secureHandshakeFailed(TLSErrorText.describe(error))
        case let error as BoringSSLError:
            return .secureHandshakeFailed(TLSErrorText.describe(error))
        default:
            return .connectionClosed("unexpectedly (\(error))")
        }
    }

    private static func connectReason(_ error: any Error, host: String) -> String {
        switch error {
        case let error as NIOConnectionError:
            // Prefer what a connection attempt said; DNS errors matter only when nothing was tried.
            if let first = error.connectionErrors.first {
                return connectReason(first.error, host: host)
            }
            if error.dnsAError != nil || error.dnsAAAAError != nil {
                return "the name \(host) could not be resolved"
            }
            return "no address was found for \(host)"
        case is SocketAddressError, is SocketAddressError.UnknownHost:
            return "the name \(host) could not be resolved"
        case let error as IOError:
            switch error.errnoCode {
            case ECONNREFUSED: return "connection refused"
            case EHOSTUNREACH: return "the host is unreachable"
            case ENETUNREACH: return "the network is unreachable"
            case EADDRNOTAVAIL: return "the address cannot be reached from this machine"
            default: return systemMessage(error.errnoCode)
            }
        default:
            return "\(error)"
        }
    }

    /// The C library's text for `code`, lowercased like the rest of a sentence ("broken pipe").
    private static func systemMessage(_ code: CInt) -> String {
        guard let text = strerror(code) else { return "system error \(code)" }
        let message = String(cString: text)
        return message.prefix(1).lowercased() + message.dropFirst()
    }
}
