import Foundation
@testable import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Testing

/// The verification code's nonces on the wire: the inviter commits in HELLO, the advertiser
/// answers with its nonce in ACCEPT, the inviter reveals; a reveal that does not match its
/// commitment, or that comes twice, ends the link.
@Suite("The verification code's exchange", .timeLimit(.minutes(1)))
struct CodeExchangeTests {
    /// A raw inviter that said HELLO, committed to `SampleFrames.codeNonce`, and was accepted.
    static func accepted(_ peers: TwoPeers) async throws -> (RawConnection, Frame.Accept) {
        let raw = try await peers.network.openRawConnection(toPort: peers.port)
        raw.send(.hello(.init(peer: peer("carol"), invitationTimeoutMilliseconds: 5_000, codeCommitment: SampleFrames.codeCommitment, context: Data())))
        #expect(await eventually { !raw.receivedFrames.isEmpty })
        guard case .accept(let accept) = raw.receivedFrames.first else { throw TestFailure("expected an accept, got \(raw.receivedFrames)") }
        return (raw, accept)
    }

    @Test("The ACCEPT carries a fresh nonce of 32 bytes, and the inviter sends its nonce as soon as it is accepted")
    func noncesOnTheWire() async throws {
        try await withTwoPeers { peers async throws in
            let (first, accept) = try await Self.accepted(peers)
            #expect(accept.codeNonce.count == VerificationCode.nonceBytes)
            first.send(.reveal(nonce: SampleFrames.codeNonce))
            first.send(.goodbye(reason: nil))
            let (_, again) = try await Self.accepted(peers)
            #expect(again.codeNonce != accept.codeNonce, "one nonce per connection")

            // A real inviter: its first frame after the ACCEPT reveals what its HELLO committed to.
            let host = RawConnection()
            let listener = try await peers.network.listen(port: 0, options: LinkOptions()) { host }
            let invitation = Task { try await peers.guest.invite(Endpoint(host: InMemoryNetwork.host, port: listener.port)) }
            #expect(await eventually { !host.receivedFrames.isEmpty })
            guard case .hello(let hello) = host.receivedFrames.first else { throw TestFailure("expected a hello, got \(host.receivedFrames)") }
            #expect(hello.version == 3 && hello.codeCommitment.count == VerificationCode.nonceBytes && hello.features == WireProtocol.features)
            let dave = peer("dave")
            host.send(.accept(.init(peer: dave, codeNonce: SampleFrames.codeNonce)))
            #expect(try await invitation.value == .connected(dave))
            #expect(await eventually { host.receivedFrames.count >= 2 })
            guard case .reveal(let nonce, _) = host.receivedFrames[1] else { throw TestFailure("expected a reveal, got \(host.receivedFrames)") }
            #expect(VerificationCode.commitment(to: nonce) == hello.codeCommitment)
            await listener.close()
        }
    }

    @Test("A reveal that does not match the commitment ends the link as a protocol violation; the right one keeps it")
    func mismatchedReveal() async throws {
        try await withTwoPeers { peers async throws in
            let (liar, _) = try await Self.accepted(peers)
            liar.send(.reveal(nonce: VerificationCode.nonce()))
            #expect(await eventually { liar.isClosed })
            #expect(liar.receivedFrames.last == .goodbye(reason: "protocol violation"))
            #expect(await peers.hostLog.first { $0.level == .notice && $0["code"] == "protocolViolation" } != nil)

            let (honest, _) = try await Self.accepted(peers)
            honest.send(.reveal(nonce: SampleFrames.codeNonce))
            honest.send(.heartbeat)
            #expect(await eventually { peers.host.connectedPeers.map(\.displayName) == ["carol"] })
            // A second reveal is one too many.
            honest.send(.reveal(nonce: SampleFrames.codeNonce))
            #expect(await eventually { honest.isClosed })
        }
    }
}
