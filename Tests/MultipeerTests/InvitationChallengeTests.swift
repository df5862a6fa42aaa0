import Foundation
@testable import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Testing

/// An advertiser that accepts on condition (``InvitationDecision/challenge(_:)``): its question
/// travels in the ACCEPT, the inviter's answer in its REVEAL, and the inviter is connected on the
/// advertiser's side only if the answer checks.
@Suite("Invitation challenges", .timeLimit(.minutes(1)))
struct InvitationChallengeTests {
    /// A policy that asks "question?" and lets in only the answer "answer!"; it records every
    /// answer it was given.
    static func asking(_ answers: Locked<[Data]>) -> InvitationPolicy {
        .custom { _ in
            .challenge(InvitationChallenge(bytes: Data("question?".utf8)) { answer in
                answers.withLock { $0.append(answer) }
                return answer == Data("answer!".utf8) ? nil : "that is not the answer"
            })
        }
    }

    @Test("The right answer connects both sides; the challenge reaches the inviter's answer and the answer the check")
    func rightAnswer() async throws {
        let answers = Locked<[Data]>([])
        try await withTwoPeers(policy: Self.asking(answers)) { peers async throws in
            let asked = Locked<[Data]>([])
            let outcome = try await peers.guest.invite(peers.endpoint, answer: { host, challenge in
                asked.withLock { $0.append(challenge) }
                return host.displayName == "alice" ? .success(Data("answer!".utf8)) : .failure(InvitationAnswerRefusal("who are you?"))
            })
            #expect(outcome == .connected(peers.host.localPeer))
            #expect(await peers.hostStates.waitFor(peers.guest.localPeer, .connected) != nil)
            #expect(asked.value == [Data("question?".utf8)])
            #expect(answers.value == [Data("answer!".utf8)])
            #expect(peers.host.verificationCode(with: peers.guest.localPeer) == peers.guest.verificationCode(with: peers.host.localPeer))
        }
    }

    @Test("A wrong answer is never connected on the advertiser's side: its link closes with the check's sentence")
    func wrongAnswer() async throws {
        let answers = Locked<[Data]>([])
        try await withTwoPeers(policy: Self.asking(answers)) { peers async throws in
            let outcome = try await peers.guest.invite(peers.endpoint, answer: { _, _ in .success(Data("a guess".utf8)) })
            // The inviter had nothing to doubt; the advertiser's check then says no.
            #expect(outcome == .connected(peers.host.localPeer))
            let dropped = await peers.guestStates.waitFor(peers.host.localPeer, .notConnected)
            #expect(dropped?.reason == .goodbye("that is not the answer"))
            #expect(await peers.hostStates.waitFor(peers.guest.localPeer, .notConnected)?.reason == .invitationEnded)
            #expect(peers.hostStates.states(of: peers.guest.localPeer) == [.connecting, .notConnected])
            #expect(peers.host.connectedPeers.isEmpty)
        }
    }

    @Test("An inviter without an answer gives an empty one; an inviter that refuses the challenge ends its invitation with its sentence")
    func noAnswerAndRefusal() async throws {
        let answers = Locked<[Data]>([])
        try await withTwoPeers(policy: Self.asking(answers)) { peers async throws in
            _ = try await peers.guest.invite(peers.endpoint)
            #expect(await eventually { answers.value == [Data()] })
            #expect(await peers.guestStates.waitFor(peers.host.localPeer, .notConnected) != nil)

            await #expect(throws: MultipeerError(.hostRefused, "not the host I know")) {
                try await peers.guest.invite(peers.endpoint, answer: { _, _ in .failure(InvitationAnswerRefusal("not the host I know")) })
            }
            #expect(answers.value.count == 1, "a refused challenge gets no answer")
            #expect(await eventually { peers.host.state(of: peers.guest.localPeer) == .notConnected })
            #expect(!peers.hostStates.states(of: peers.guest.localPeer).contains(.connected))
        }
    }

    @Test("A challenged inviter that never answers stays connecting until its invitation expires")
    func silentAfterAccept() async throws {
        let answers = Locked<[Data]>([])
        try await withTwoPeers(policy: Self.asking(answers)) { peers async throws in
            let raw = try await peers.network.openRawConnection(toPort: peers.port)
            let carol = peer("carol")
            raw.send(.hello(.init(peer: carol, invitationTimeoutMilliseconds: 1_000, codeCommitment: SampleFrames.codeCommitment, context: Data())))
            #expect(await eventually { !raw.receivedFrames.isEmpty })
            guard case .accept(let accept) = raw.receivedFrames.first else { throw TestFailure("expected an accept, got \(raw.receivedFrames)") }
            #expect(accept.challenge == Data("question?".utf8))
            #expect(peers.host.state(of: carol) == .connecting)
            // Data before the answer breaks the protocol; here the inviter just stays silent.
            await peers.network.advanceTime(by: .seconds(1))
            #expect(!raw.isClosed, "open until the invitation's second has passed")
            #expect(peers.host.state(of: carol) == .connecting)
            await peers.network.advanceTime(by: .milliseconds(250))
            #expect(raw.isClosed)
            #expect(raw.receivedFrames.last == .goodbye(reason: "no answer to the host's challenge before the invitation expired"))
            #expect(answers.value.isEmpty)
            #expect(peers.host.state(of: carol) == .notConnected)
        }
    }

    @Test("Data before the answer is a protocol violation")
    func dataBeforeAnswer() async throws {
        let answers = Locked<[Data]>([])
        try await withTwoPeers(policy: Self.asking(answers)) { peers async throws in
            let raw = try await peers.network.openRawConnection(toPort: peers.port)
            raw.send(.hello(.init(peer: peer("carol"), invitationTimeoutMilliseconds: 5_000, codeCommitment: SampleFrames.codeCommitment, context: Data())))
            #expect(await eventually { !raw.receivedFrames.isEmpty })
            raw.send(.data(messageType: "chat", payload: Data("hi".utf8)))
            #expect(await eventually { raw.isClosed })
            #expect(raw.receivedFrames.last == .goodbye(reason: "protocol violation"))
            #expect(peers.hostData.all.isEmpty && answers.value.isEmpty)
        }
    }
}
