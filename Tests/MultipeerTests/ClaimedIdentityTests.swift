import Foundation
import Multipeer
import MultipeerTestSupport
import Testing

@Suite("Each running program claims its own stored identity", .timeLimit(.minutes(1)))
struct ClaimedIdentityTests {
    let environment = ["XDG_CONFIG_HOME": Scratch.path("guessnum-claim").path]

    @Test("Two claims at once get two identities; after the first is released, a new claim gets it back")
    func slots() throws {
        var first: ClaimedIdentity? = try PeerIdentityStore.claim(application: "guessnum", fileName: "peer-identity-guest", environment: environment)
        let second = try PeerIdentityStore.claim(application: "guessnum", fileName: "peer-identity-guest", environment: environment)
        let third = try PeerIdentityStore.claim(application: "guessnum", fileName: "peer-identity-guest", environment: environment)
        let firstIdentity = try #require(first?.identity)
        #expect(Set([firstIdentity, second.identity, third.identity]).count == 3)
        #expect([first?.slot, second.slot, third.slot] == [1, 2, 3])
        #expect(second.store.fileURL.lastPathComponent == "peer-identity-guest-2")
        first = nil
        let again = try PeerIdentityStore.claim(application: "guessnum", fileName: "peer-identity-guest", environment: environment)
        #expect(again.identity == firstIdentity && again.slot == 1, "the person who quit and came back is recognised")
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
