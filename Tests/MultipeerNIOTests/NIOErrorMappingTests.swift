#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import Multipeer
@testable import MultipeerNIO
import NIOCore
import Testing

/// The sentences NIO and system errors become, including failures loopback cannot produce.
@Suite("NIO error mapping", .timeLimit(.minutes(2)))
struct NIOErrorMappingTests {
    private let endpoint = try! Endpoint(host: "192.168.1.20", port: 7777)

    @Test func connectFailuresSayWhy() {
        func reason(_ error: any Error, timeout: Duration = .seconds(5)) -> MultipeerError {
            NIOErrorMapping.connectFailure(error, endpoint: endpoint, timeout: timeout)
        }
        #expect(reason(IOError(errnoCode: ECONNREFUSED, reason: "connect")) == .connectionFailed(endpoint, "connection refused"))
        #expect(reason(IOError(errnoCode: EHOSTUNREACH, reason: "connect")) == .connectionFailed(endpoint, "the host is unreachable"))
        #expect(reason(IOError(errnoCode: ENETUNREACH, reason: "connect")) == .connectionFailed(endpoint, "the network is unreachable"))
        // Nothing answering is told apart: it is what a firewall that drops connections looks like.
        #expect(reason(ChannelError.connectTimeout(.seconds(5))) == .hostNotAnswering([endpoint], within: .seconds(5)))
        #expect(reason(ChannelError.connectTimeout(.milliseconds(2500)), timeout: .milliseconds(2500))
            == .hostNotAnswering([endpoint], within: .milliseconds(2500)))
        #expect(reason(IOError(errnoCode: ETIMEDOUT, reason: "connect")).message
            == "Nothing answered at 192.168.1.20:7777 within 5 s: the machine may be off the network, or a firewall may be dropping connections to the port.")
        #expect(reason(SocketAddressError.failedToParseIPString("192.168.1.20"))
            == .connectionFailed(endpoint, "the name 192.168.1.20 could not be resolved"))
        #expect(reason(MultipeerError.cancelled) == .cancelled, "library errors pass through")
    }

    @Test func listenFailuresSayWhy() {
        #expect(NIOErrorMapping.listenFailure(IOError(errnoCode: EADDRINUSE, reason: "bind"), port: 7777, host: "::")
            == .listenFailed(port: 7777, "address already in use"))
        #expect(NIOErrorMapping.listenFailure(IOError(errnoCode: EADDRNOTAVAIL, reason: "bind"), port: 7777, host: "10.9.8.7")
            == .listenFailed(port: 7777, "10.9.8.7 is not an address of this machine"))
        #expect(NIOErrorMapping.listenFailure(IOError(errnoCode: EACCES, reason: "bind"), port: 80, host: "::").code == .listenFailed)
    }

    @Test func onlyErrorsThatMayMeanNoIPv6FallBackToIPv4() {
        #expect(NIOErrorMapping.mayMeanNoIPv6(IOError(errnoCode: EAFNOSUPPORT, reason: "socket")))
        #expect(NIOErrorMapping.mayMeanNoIPv6(IOError(errnoCode: EADDRNOTAVAIL, reason: "bind")))
        #expect(!NIOErrorMapping.mayMeanNoIPv6(IOError(errnoCode: EADDRINUSE, reason: "bind")))
        #expect(!NIOErrorMapping.mayMeanNoIPv6(IOError(errnoCode: EACCES, reason: "bind")))
    }

    @Test func connectionErrorsAreOneSentence() {
        let reset = NIOErrorMapping.connectionError(IOError(errnoCode: ECONNRESET, reason: "read"))
        #expect(reset == .connectionClosed("unexpectedly (the other side reset it)"))
        let pipe = NIOErrorMapping.connectionError(IOError(errnoCode: EPIPE, reason: "write"))
        #expect(pipe.code == .connectionClosed)
        let wrapped = ByteToMessageDecoderError.dataReceivedInErrorState(MultipeerError.malformedFrame("x"), ByteBuffer())
        #expect(NIOErrorMapping.connectionError(wrapped) == .malformedFrame("x"))
        let other = NIOErrorMapping.connectionError(IOError(errnoCode: EIO, reason: "read"))
        #expect(other.code == .connectionClosed)
        #expect(!other.message.contains("errno"), "a sentence, not a dump: \(other.message)")
    }

    @Test func remoteAddressesReadLikeEndpoints() throws {
        #expect(RemoteAddressText.describe(try SocketAddress(ipAddress: "127.0.0.1", port: 54321)) == "127.0.0.1:54321")
        #expect(RemoteAddressText.describe(try SocketAddress(ipAddress: "fe80::1", port: 7777)) == "[fe80::1]:7777")
        #expect(RemoteAddressText.describe(try SocketAddress(ipAddress: "::ffff:192.168.1.20", port: 7777)) == "192.168.1.20:7777")
    }
}

@Suite("NIO error mapping keeps the cause", .timeLimit(.minutes(1)))
struct NIOErrorMappingCauseTests {
    @Test("The NIO or system error a failure was made from is its cause, for logs; the sentence is unchanged")
    func causesKept() throws {
        let endpoint = try Endpoint(host: "192.168.1.20", port: 7777)
        let refused = NIOErrorMapping.connectFailure(IOError(errnoCode: ECONNREFUSED, reason: "connect"), endpoint: endpoint, timeout: .seconds(5))
        #expect(refused == .connectionFailed(endpoint, "connection refused"))
        #expect((refused.underlying as? IOError)?.errnoCode == ECONNREFUSED)
        let silent = NIOErrorMapping.connectFailure(ChannelError.connectTimeout(.seconds(5)), endpoint: endpoint, timeout: .seconds(5))
        #expect(silent.code == .hostNotAnswering && silent.underlying is ChannelError)
        let listen = NIOErrorMapping.listenFailure(IOError(errnoCode: EADDRINUSE, reason: "bind"), port: 7777, host: "::")
        #expect(listen.code == .listenFailed && listen.underlying is IOError)
        let closed = NIOErrorMapping.connectionError(IOError(errnoCode: ECONNRESET, reason: "read"))
        #expect(closed.code == .connectionClosed && (closed.underlying as? IOError)?.errnoCode == ECONNRESET)
        #expect(NIOErrorMapping.connectionError(MultipeerError.cancelled).underlying == nil, "a library error is passed on as it is")
    }
}
