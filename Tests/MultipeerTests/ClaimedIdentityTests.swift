import Foundation
import Multipeer
import MultipeerPOSIX
import MultipeerTestSupport
import Testing

@Suite("Each running program claims its own stored identity", .timeLimit(.minutes(1)))
struct ClaimedIdentityTests {
    let environment = ["XDG_CONFIG_HOME": Scratch.path("guessnum-claim").path]

    @Test("Two claims at once get two identities; after the first is released, a new claim gets it back")
    func slots() async throws {
        var first: ClaimedIdentity? = try PeerIdentityStore.claim(application: "guessnum", fileName: "peer-identity-guest", environment: environment)
        let second = try PeerIdentityStore.claim(application: "guessnum", fileName: "peer-identity-guest", environment: environment)
        let third = try PeerIdentityStore.claim(application: "guessnum", fileName: "peer-identity-guest", environment: environment)
        let firstIdentity = try #require(first?.identity)
        #expect(Set([firstIdentity, second.identity, third.identity]).count == 3)
        #expect([first?.slot, second.slot, third.slot] == [1, 2, 3])
        #expect(second.store.fileURL.lastPathComponent == "peer-identity-guest-2")
        first = nil
        // The lock goes with the last copy of its descriptor: a child process that another test
        // is starting right now holds one until it has exec'd (O_CLOEXEC), which on a busy
        // machine can take a while. Each try that finds slot 1 still taken lets its slot go.
        var again: ClaimedIdentity?
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let claim = try PeerIdentityStore.claim(application: "guessnum", fileName: "peer-identity-guest", environment: environment)
            if claim.slot == 1 {
                again = claim
                break
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(again?.identity == firstIdentity && again?.slot == 1, "the person who quit and came back is recognised")
        withExtendedLifetime(second) {}
        withExtendedLifetime(third) {}
    }

    @Test("When every slot is taken, the claim fails with a sentence")
    func allTaken() throws {
        let only = try PeerIdentityStore.claim(application: "guessnum", environment: environment, maximumSlots: 1)
        let error = #expect(throws: MultipeerError.self) {
            _ = try PeerIdentityStore.claim(application: "guessnum", environment: environment, maximumSlots: 1)
        }
        #expect(error?.code == .identityStorage)
        #expect(error?.message.contains("are in use by running programs") == true, "\(String(describing: error))")
        withExtendedLifetime(only) {}
    }
}
