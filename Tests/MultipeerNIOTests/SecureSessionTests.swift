import Foundation
@testable import MultipeerNIO
import Multipeer
import MultipeerTestSupport
import NIOSSL
import Synchronization
import Testing

/// Sessions over TLS 1.3 on loopback, each side proving its identity key: what was claimed is
/// what was proved, and peers that do not speak TLS, or claim what they cannot prove, are
/// refused with a sentence.
@Suite("Secure sessions", .timeLimit(.minutes(2)))
struct SecureSessionTests {
    /// A peer named `name` whose identity its own new key proves, and a TLS transport for it.
    static func keyed(_ name: String, bindHost: String? = nil) throws -> (PeerID, TCPTransport, PeerKey) {
        let key = PeerKey.generate()
        return (try key.peer(displayName: name), TCPTransport(bindHost: bindHost, credentials: try TLSCredentials(key: key)), key)
    }

    func loopback(_ port: Int) -> Endpoint { try! Endpoint(host: "127.0.0.1", port: port) }

    @Test("Two keyed sessions connect over TLS, each proving its key, and exchange messages")
    func handshakeOverTLS() async throws {
        try await withSessions { scope in
            let (alice, aliceTransport, _) = try Self.keyed("alice", bindHost: "127.0.0.1")
            let (bob, bobTransport, _) = try Self.keyed("bob")
            let host = scope.session(localPeer: alice, transport: aliceTransport, configuration: .notAboutTimeouts)
            let guest = scope.session(localPeer: bob, transport: bobTransport, configuration: .notAboutTimeouts)
            let hostData = EventLog(host.events, .dataReceived)
            let port = try await host.startListening(policy: .acceptAll)
            #expect(try await guest.invite(loopback(port)) == .connected(alice))
            #expect(await eventually { host.connectedPeers == [bob] })
            try guest.send(Data("a guess".utf8), to: [alice])
            #expect(await hostData.count(atLeast: 1) { $0.payload == Data("a guess".utf8) } == 1)
        }
    }

    @Test("Both sides show the same code; the same two keys get another code on their next connection; a relay with keys of its own shows each side another code")
    func verificationCodes() async throws {
        try await withSessions { scope in
            let (alice, aliceTransport, _) = try Self.keyed("alice", bindHost: "127.0.0.1")
            let (bob, bobTransport, _) = try Self.keyed("bob")
            let host = scope.session(localPeer: alice, transport: aliceTransport, configuration: .notAboutTimeouts)
            let port = try await host.startListening(policy: .acceptAll)

            var codes: [String] = []
            for _ in 0..<2 {
                let guest = scope.session(localPeer: bob, transport: bobTransport, configuration: .notAboutTimeouts)
                #expect(try await guest.invite(loopback(port)) == .connected(alice))
                let guestsCode = try #require(guest.verificationCode(with: alice), "the inviter knows the code once accepted")
                #expect(await eventually { host.verificationCode(with: bob) != nil }, "the host, once the nonce is revealed")
                #expect(host.verificationCode(with: bob) == guestsCode)
                codes.append(guestsCode)
                await guest.disconnect()
                #expect(await eventually { host.connectedPeers.isEmpty })
            }
            // Fresh nonces each time: nothing about the keys alone fixes the code, so it cannot
            // be ground ahead of time (equal by chance once in a million).
            #expect(codes[0] != codes[1], "\(codes)")

            // Mallory relays: bob reaches her front (her own key, named alice), her back joins alice.
            let (front, frontTransport, _) = try Self.keyed("alice", bindHost: "127.0.0.1")
            let (back, backTransport, _) = try Self.keyed("bob")
            let relayFront = scope.session(localPeer: front, transport: frontTransport, configuration: .notAboutTimeouts)
            let relayBack = scope.session(localPeer: back, transport: backTransport, configuration: .notAboutTimeouts)
            let frontPort = try await relayFront.startListening(policy: .acceptAll)
            #expect(try await relayBack.invite(loopback(port)) == .connected(alice))
            let victim = scope.session(localPeer: bob, transport: bobTransport, configuration: .notAboutTimeouts)
            #expect(try await victim.invite(loopback(frontPort)) == .connected(front))
            let victimsCode = try #require(victim.verificationCode(with: front))
            #expect(await eventually { host.verificationCode(with: back) != nil })
            let hostsCode = try #require(host.verificationCode(with: back))
            #expect(victimsCode != hostsCode, "bob and alice read different codes: \(victimsCode), \(hostsCode)")
            #expect(await eventually { relayFront.verificationCode(with: bob) == victimsCode }, "each leg agrees with itself")
            #expect(relayBack.verificationCode(with: alice) == hostsCode)
        }
    }

    @Test("A guest whose HELLO claims another peer's identity is turned away with a sentence, and the host logs it")
    func claimedIdentityMustBeProved() async throws {
        try await withSessions { scope in
            let log = RecordingLogHandler.Store()
            let (alice, aliceTransport, _) = try Self.keyed("alice", bindHost: "127.0.0.1")
            let host = scope.session(localPeer: alice, transport: aliceTransport, logger: log.logger(label: "multipeer.session"))
            let port = try await host.startListening(policy: .acceptAll)
            // Carol's identity, which every player learns from the welcome, over Mallory's key.
            let carol = try PeerKey.generate().peer(displayName: "carol")
            let (_, malloryTransport, _) = try Self.keyed("mallory")
            let impostor = scope.session(localPeer: carol, transport: malloryTransport)
            let outcome = try await impostor.invite(loopback(port))
            guard case .declined(let reason) = outcome else {
                Issue.record("expected a refusal, got \(outcome)")
                return
            }
            #expect(reason?.contains("claims an identity that its key does not prove") == true, "\(reason ?? "")")
            #expect(host.connectedPeers.isEmpty)
            #expect(await log.first { $0.level == .notice && $0["code"] == "peerNotProved" } != nil)
        }
    }

    @Test("A guest that picked a game refuses another key answering at its address, before its invitation leaves")
    func discoveredHostMustAnswer() async throws {
        try await withSessions { scope in
            let (mallory, malloryTransport, _) = try Self.keyed("alice", bindHost: "127.0.0.1")
            let impostor = scope.session(localPeer: mallory, transport: malloryTransport)
            let invitations = Locked<[Invitation]>([])
            let port = try await impostor.startListening(policy: .custom { invitation in
                invitations.withLock { $0.append(invitation) }
                return .accept
            })
            // The game that was discovered: the real alice, whose address Mallory now answers.
            let alice = try PeerKey.generate().peer(displayName: "alice")
            let picked = DiscoveredPeer(peer: alice, endpoints: [loopback(port)], info: DiscoveryInfo())
            let (bob, bobTransport, _) = try Self.keyed("bob")
            let guest = scope.session(localPeer: bob, transport: bobTransport)
            do throws(MultipeerError) {
                let outcome = try await guest.invite(picked, context: Data("a secret for alice only".utf8))
                Issue.record("expected a refusal, got \(outcome)")
            } catch {
                #expect(error.code == .wrongPeer)
                #expect(error.message.contains("This is not the game you picked"), "\(error.message)")
            }
            #expect(guest.connectedPeers.isEmpty)
            #expect(await eventually { impostor.connectedPeers.isEmpty })
            // The HELLO, and the context with it, never reached the impostor.
            #expect(invitations.value.isEmpty)
        }
    }

    @Test("Another key at one of a picked host's addresses fails that address only: the next one, where the host answers, connects")
    func wrongKeyAtOneAddress() async throws {
        try await withSessions { scope in
            let (alice, aliceTransport, _) = try Self.keyed("alice", bindHost: "127.0.0.1")
            let host = scope.session(localPeer: alice, transport: aliceTransport)
            let alicesPort = try await host.startListening(policy: .acceptAll)
            let (mallory, malloryTransport, _) = try Self.keyed("alice", bindHost: "127.0.0.1")
            let impostor = scope.session(localPeer: mallory, transport: malloryTransport)
            let mallorysPort = try await impostor.startListening(policy: .acceptAll)
            // Mallory's address comes first in the listing.
            let picked = DiscoveredPeer(peer: alice, endpoints: [loopback(mallorysPort), loopback(alicesPort)], info: DiscoveryInfo())
            let (bob, bobTransport, _) = try Self.keyed("bob")
            let guest = scope.session(localPeer: bob, transport: bobTransport)
            #expect(try await guest.invite(picked) == .connected(alice))
            #expect(impostor.connectedPeers.isEmpty)
        }
    }

    @Test("A picked host that the inviter's host check refuses never hears the invitation")
    func hostCheckRefusesBeforeHello() async throws {
        try await withSessions { scope in
            let (alice, aliceTransport, aliceKey) = try Self.keyed("alice", bindHost: "127.0.0.1")
            let host = scope.session(localPeer: alice, transport: aliceTransport)
            let invitations = Locked<[Invitation]>([])
            let port = try await host.startListening(policy: .custom { invitation in
                invitations.withLock { $0.append(invitation) }
                return .accept
            })
            let picked = DiscoveredPeer(peer: alice, endpoints: [loopback(port)], info: DiscoveryInfo())
            let (bob, bobTransport, _) = try Self.keyed("bob")
            let guest = scope.session(localPeer: bob, transport: bobTransport)
            let seen = Locked<PeerFingerprint?>(nil)
            do throws(MultipeerError) {
                let outcome = try await guest.invite(picked, context: Data("proof".utf8)) { _, proof in
                    seen.withLock { $0 = proof?.key }
                    return "another key than last time"
                }
                Issue.record("expected a refusal, got \(outcome)")
            } catch {
                #expect(error.code == .hostRefused && error.message == "another key than last time")
            }
            #expect(seen.value == aliceKey.fingerprint)
            #expect(invitations.value.isEmpty)
            #expect(guest.connectedPeers.isEmpty)
            // The same check passing lets the invitation, context and all, through.
            #expect(try await guest.invite(picked, context: Data("proof".utf8)) { _, _ in nil } == .connected(alice))
            #expect(invitations.value.map(\.context) == [Data("proof".utf8)])
        }
    }

    @Test("The inviter's host check sees the host and its proved key, and refuses it before anything is posted")
    func hostCheckRefuses() async throws {
        try await withSessions { scope in
            let (alice, aliceTransport, aliceKey) = try Self.keyed("alice", bindHost: "127.0.0.1")
            let host = scope.session(localPeer: alice, transport: aliceTransport)
            let port = try await host.startListening(policy: .acceptAll)
            let (bob, bobTransport, _) = try Self.keyed("bob")
            let guest = scope.session(localPeer: bob, transport: bobTransport)
            let states = EventLog(guest.events, .stateChanged)
            let seen = Locked<(PeerID, PeerFingerprint?)?>(nil)
            do throws(MultipeerError) {
                let outcome = try await guest.invite(loopback(port)) { peer, proof in
                    seen.withLock { $0 = (peer, proof?.key) }
                    return "not this one"
                }
                Issue.record("expected a refusal, got \(outcome)")
            } catch {
                #expect(error.code == .hostRefused && error.message == "not this one")
            }
            #expect(seen.value?.0 == alice && seen.value?.1 == aliceKey.fingerprint)
            #expect(guest.connectedPeers.isEmpty)
            #expect(!states.all.contains { $0.state == .connected })
            #expect(await eventually { host.connectedPeers.isEmpty })
        }
    }

    @Test("A plaintext HELLO to a TLS host reads a DECLINE that says to update, and the host logs one line")
    func plaintextClientIsTold() async throws {
        try await withSessions { scope in
            let log = RecordingLogHandler.Store()
            let (alice, aliceTransport, _) = try Self.keyed("alice", bindHost: "127.0.0.1")
            let host = scope.session(localPeer: alice, transport: aliceTransport, logger: log.logger(label: "multipeer.session"))
            let port = try await host.startListening(policy: .acceptAll)
            let socket = try RawSocket(port: port, readTimeoutSeconds: 30)
            try socket.write(FrameCodec.encode(.hello(.init(peer: peer("old"), invitationTimeoutMilliseconds: 1000, codeCommitment: SampleFrames.codeCommitment, context: Data()))).bytes)
            let (bytes, end) = await socket.readToEnd()
            #expect(end == .closed)
            var decoder = FrameDecoder()
            decoder.append(bytes)
            guard case .decline(let decline) = try decoder.nextFrame() else {
                Issue.record("expected a decline, got \(bytes.count) bytes")
                return
            }
            #expect(decline.cause == .unsupportedVersion)
            #expect(decline.reason?.contains("only encrypted connections") == true)
            #expect(await log.count(atLeast: 1) { $0.level == .notice } == 1)
        }
    }

    @Test("A plaintext session inviting a TLS host fails with the host's sentence")
    func plaintextSessionIsTold() async throws {
        try await withSessions { scope in
            let (alice, aliceTransport, _) = try Self.keyed("alice", bindHost: "127.0.0.1")
            let host = scope.session(localPeer: alice, transport: aliceTransport)
            let port = try await host.startListening(policy: .acceptAll)
            let old = scope.session(localPeer: peer("old"), transport: TCPTransport())
            do throws(MultipeerError) {
                let outcome = try await old.invite(loopback(port))
                Issue.record("expected a failure, got \(outcome)")
            } catch {
                #expect(error.code == .unsupportedProtocolVersion)
                #expect(error.message.contains("only encrypted connections"), "\(error.message)")
            }
        }
    }

    @Test("A TLS guest inviting a plaintext host fails with a sentence about the secure handshake")
    func tlsGuestOfPlaintextHost() async throws {
        try await withSessions { scope in
            let host = scope.session(localPeer: peer("old"), transport: TCPTransport(bindHost: "127.0.0.1"))
            let port = try await host.startListening(policy: .acceptAll)
            let (bob, bobTransport, _) = try Self.keyed("bob")
            let guest = scope.session(localPeer: bob, transport: bobTransport)
            do throws(MultipeerError) {
                let outcome = try await guest.invite(loopback(port), timeout: .seconds(30))
                Issue.record("expected a failure, got \(outcome)")
            } catch {
                #expect([.secureHandshakeFailed, .connectionClosed].contains(error.code), "\(error)")
                #expect(!error.message.isEmpty)
            }
        }
    }

    @Test("A TLS handshake cut short is dropped by the handshake deadline")
    func truncatedHandshake() async throws {
        var configuration = SessionConfiguration()
        configuration.handshakeTimeout = .seconds(1)
        try await withSessions { scope in
            let (alice, aliceTransport, _) = try Self.keyed("alice", bindHost: "127.0.0.1")
            let host = scope.session(localPeer: alice, transport: aliceTransport, configuration: configuration)
            let port = try await host.startListening(policy: .acceptAll)
            let socket = try RawSocket(port: port, readTimeoutSeconds: 30)
            try socket.write([22, 3, 1, 0, 200, 1, 0])  // the start of a ClientHello, then silence
            let started = ContinuousClock.now
            let (_, end) = await socket.readToEnd()
            // Closed, not timed out: the deadline (1 s, checked every 250 ms) and then the close's
            // grace period (2 s), without the peer's help.
            #expect(end == .closed || end == .reset)
            #expect(ContinuousClock.now - started >= .milliseconds(900))
        }
    }

    @Test("A certificate carrying an owner's endorsement of its key proves the owner too; one endorsing another key proves no owner")
    func endorsedCertificate() throws {
        let owner = PeerKey.generate()
        let key = PeerKey.generate()
        let endorsed = try TLSCredentials.selfSignedCertificate(for: key, endorsement: try PeerEndorsement(endorsing: key.fingerprint, by: owner), now: Date())
        guard case .success(let proof) = PeerCertificateCheck.check([endorsed], now: Date()) else {
            Issue.record("an endorsed certificate is good")
            return
        }
        #expect(proof == PeerProof(key: key.fingerprint, owner: owner.fingerprint))
        // An endorsement copied from another program's certificate names that program's key.
        let copied = try TLSCredentials.selfSignedCertificate(
            for: key, endorsement: try PeerEndorsement(endorsing: PeerKey.generate().fingerprint, by: owner), now: Date())
        guard case .success(let unowned) = PeerCertificateCheck.check([copied], now: Date()) else {
            Issue.record("a certificate with an endorsement of another key is still its key's")
            return
        }
        #expect(unowned == PeerProof(key: key.fingerprint))
    }

    @Test("Over TLS, a host whose key its owner endorsed shows the guest's host check both keys; a guest of an earlier release sees its key as before")
    func endorsedHost() async throws {
        try await withSessions { scope in
            let owner = PeerKey.generate()
            let key = PeerKey.generate()
            let alice = try key.peer(displayName: "alice")
            let credentials = try TLSCredentials(key: key, endorsement: try PeerEndorsement(endorsing: key.fingerprint, by: owner))
            let host = scope.session(localPeer: alice, transport: TCPTransport(bindHost: "127.0.0.1", credentials: credentials))
            let port = try await host.startListening(policy: .acceptAll)
            let (bob, bobTransport, _) = try Self.keyed("bob")
            let guest = scope.session(localPeer: bob, transport: bobTransport)
            let seen = Locked<PeerProof?>(nil)
            #expect(try await guest.invite(loopback(port)) { _, proof in
                seen.withLock { $0 = proof }
                return nil
            } == .connected(alice))
            #expect(seen.value == PeerProof(key: key.fingerprint, owner: owner.fingerprint))
            #expect(guest.proof(of: alice)?.holder == owner.fingerprint)
            #expect(guest.provenKey(of: alice) == key.fingerprint)
        }
    }

    @Test("A certificate is refused, with its reason, when expired, not yet valid, or not a P-256 key's own")
    func certificateChecks() throws {
        let key = PeerKey.generate()
        let certificate = try TLSCredentials.selfSignedCertificate(for: key, now: Date())
        guard case .success(let proof) = PeerCertificateCheck.check([certificate], now: Date()) else {
            Issue.record("a fresh certificate is good")
            return
        }
        #expect(proof == PeerProof(key: key.fingerprint))
        let later = Date().addingTimeInterval(2 * TLSCredentials.certificateLifetime)
        guard case .failure(let expired) = PeerCertificateCheck.check([certificate], now: later) else {
            Issue.record("an expired certificate is refused")
            return
        }
        #expect(expired.code == .peerNotProved && expired.message.contains("expired"))
        let earlier = Date().addingTimeInterval(-86_400)
        guard case .failure(let early) = PeerCertificateCheck.check([certificate], now: earlier) else {
            Issue.record("a certificate not yet valid is refused")
            return
        }
        #expect(early.message.contains("not valid yet"))
        guard case .failure(let two) = PeerCertificateCheck.check([certificate, certificate], now: Date()) else {
            Issue.record("a chain of two is refused")
            return
        }
        #expect(two.message.contains("2 certificates"))
    }

    @Test("An invitation over TLS says that the inviter's key proved its identity; one over plain TCP does not")
    func invitationsSayWhetherProven() async throws {
        try await withSessions { scope in
            for secure in [true, false] {
                let (alice, aliceTransport, _) = try Self.keyed("alice", bindHost: "127.0.0.1")
                let (bob, bobTransport, _) = try Self.keyed("bob")
                let proofs = Mutex<[Bool]>([])
                let host = scope.session(
                    localPeer: alice, transport: secure ? aliceTransport : TCPTransport(bindHost: "127.0.0.1"), configuration: .notAboutTimeouts)
                let guest = scope.session(localPeer: bob, transport: secure ? bobTransport : TCPTransport(), configuration: .notAboutTimeouts)
                let port = try await host.startListening(policy: .custom { invitation in
                    proofs.withLock { $0.append(invitation.isIdentityProven) }
                    return .accept
                })
                #expect(try await guest.invite(loopback(port)) == .connected(alice))
                #expect(proofs.withLock { $0 } == [secure])
            }
        }
    }
}
