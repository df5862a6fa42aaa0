import EventBus
import Foundation
import Multipeer
import MultipeerTestSupport
import MultipeerTesting

/// A host session listening on an in-memory network and a guest session beside it, with
/// logs of both sides' state changes and data.
struct TwoPeers {
    let network: InMemoryNetwork
    let host: Session
    let guest: Session
    let hostStates: EventLog<PeerStateChange>
    let guestStates: EventLog<PeerStateChange>
    let hostData: EventLog<ReceivedData>
    let guestData: EventLog<ReceivedData>
    /// What the host's session logged.
    let hostLog = RecordingLogHandler.Store()
    let port: Int

    var endpoint: Endpoint { try! Endpoint(host: InMemoryNetwork.host, port: port) }

    init(policy: InvitationPolicy = .acceptAll, configuration: SessionConfiguration = SessionConfiguration(), network: InMemoryNetwork = InMemoryNetwork()) async throws {
        self.network = network
        host = Session(localPeer: peer("alice"), transport: network, configuration: configuration, logger: hostLog.logger(label: "multipeer.session"))
        guest = Session(localPeer: peer("bob"), transport: network, configuration: configuration)
        hostStates = EventLog(host.events, .stateChanged)
        guestStates = EventLog(guest.events, .stateChanged)
        hostData = EventLog(host.events, .dataReceived)
        guestData = EventLog(guest.events, .dataReceived)
        port = try await host.startListening(policy: policy)
    }

    /// Invites the host and expects to be connected.
    func connect() async throws {
        let outcome = try await guest.invite(endpoint)
        guard outcome == .connected(host.localPeer) else { throw TestFailure("expected to connect, got \(outcome)") }
        _ = await hostStates.waitFor(guest.localPeer, .connected)
    }

    /// Connects a raw inviter announcing `features`; returns it once the host has it connected.
    /// With message resume announced, it says its RESUME (as session `incarnation`, remembering
    /// no pairing) right after its REVEAL, unless `sendsResume` is false.
    func rawGuest(
        features: UInt32 = WireProtocol.features, named mallory: PeerID = peer("mallory"), incarnation: UInt64 = 1, sendsResume: Bool = true
    ) async throws -> (RawConnection, PeerID) {
        let raw = try await network.openRawConnection(toPort: port)
        raw.send(.hello(.init(
            peer: mallory, invitationTimeoutMilliseconds: 5000, codeCommitment: SampleFrames.codeCommitment, features: features, context: Data())))
        guard await eventually({ raw.receivedFrames.contains { if case .accept = $0 { true } else { false } } }) else {
            throw TestFailure("no accept: \(raw.receivedFrames)")
        }
        raw.send(.reveal(nonce: SampleFrames.codeNonce))
        if sendsResume, features & WireProtocol.Feature.resume != 0 {
            raw.send(.resume(.init(incarnation: incarnation, knownIncarnation: 0, received: 0)))
        }
        guard await eventually({ host.connectedPeers.contains(mallory) }) else {
            throw TestFailure("mallory never connected: \(hostStates.all)")
        }
        return (raw, mallory)
    }

    func tearDown() async {
        await guest.disconnect()
        await host.disconnect()
    }
}

/// Runs `body` with a fresh ``TwoPeers`` and tears both sessions down afterwards, however
/// `body` ends (an early return, a failed `#require`, a thrown error).
func withTwoPeers(
    policy: InvitationPolicy = .acceptAll, configuration: SessionConfiguration = SessionConfiguration(),
    network: InMemoryNetwork = InMemoryNetwork(), _ body: (TwoPeers) async throws -> Void
) async throws {
    let peers = try await TwoPeers(policy: policy, configuration: configuration, network: network)
    try await withTearDown({ try await body(peers) }, tearDown: { await peers.tearDown() })
}
