import Multipeer
@testable import MultipeerNIO
import NIOCore
import NIOEmbedded
import Synchronization
import Testing

/// Every accepted connection's certificate check names this side's key by its fingerprint: the
/// credentials work it out once, and each check holds that one (the same bytes, not a SHA-256
/// and an array per connection).
@Suite("The credentials' fingerprint, worked out once", .timeLimit(.minutes(1)))
struct CredentialsFingerprintTests {
    @Test("The credentials' fingerprint is the key's, and the pipeline's check holds that one")
    func oneFingerprint() throws {
        let key = PeerKey.generate()
        let credentials = try TLSCredentials(key: key)
        #expect(credentials.fingerprint == key.fingerprint)
        let channel = EmbeddedChannel()
        let handler = Opened()
        try ConnectionPipeline.configure(channel, side: .accepting, options: LinkOptions(), credentials: credentials, handler: handler)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
        let held = try #require(handler.connection.withLock { $0 }?.localKey)
        #expect(held == key.fingerprint)
        held.bytes.withUnsafeBufferPointer { heldBytes in
            credentials.fingerprint.bytes.withUnsafeBufferPointer { once in #expect(heldBytes.baseAddress == once.baseAddress, "the check holds the credentials' own bytes") }
        }
        _ = try? channel.finish()
    }

    /// Keeps the connection that opened.
    private final class Opened: ConnectionHandler {
        let connection = Mutex<(any Connection)?>(nil)
        func connectionDidOpen(_ connection: any Connection) { self.connection.withLock { $0 = connection } }
        func connection(_ connection: any Connection, didReceive frame: Frame) {}
        func connection(_ connection: any Connection, didCloseWith error: MultipeerError?) {}
    }
}
