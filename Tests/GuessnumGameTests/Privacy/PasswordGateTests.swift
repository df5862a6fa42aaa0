import Foundation
@testable import GuessnumGame
import Multipeer
import MultipeerTestSupport
import Testing

@Suite("Password gate", .timeLimit(.minutes(1)))
struct PasswordGateTests {
    let host = UUID()
    let key: PasswordProof.Key
    let wrongKey: PasswordProof.Key

    init() async throws {
        key = await PasswordProof.key(for: try GamePassword("open sesame"), host: host, cost: .cheap)
        wrongKey = await PasswordProof.key(for: try GamePassword("open says me"), host: host, cost: .cheap)
    }

    func request(_ key: PasswordProof.Key, for guest: PeerID) -> JoinRequest {
        JoinRequest(passwordProof: PasswordProof.proof(key, guest: guest.identity))
    }

    @Test("The right proof passes, a missing one needs the password, a wrong one is wrong")
    func decisions() {
        var gate = PasswordGate(key: key)
        let bob = peer("bob")
        let now = ContinuousClock.now
        #expect(gate.refusal(of: bob, from: "10.0.0.2", request: request(key, for: bob), at: now) == nil)
        #expect(gate.refusal(of: bob, from: "10.0.0.2", request: JoinRequest(), at: now) == .passwordNeeded)
        #expect(gate.refusal(of: bob, from: "10.0.0.2", request: request(wrongKey, for: bob), at: now) == .wrongPassword)
        // Bob's proof presented under Carol's identity proves nothing.
        #expect(gate.refusal(of: peer("carol"), from: "10.0.0.2", request: request(key, for: bob), at: now) == .wrongPassword)
    }

    @Test("Five wrong passwords from one address lock it out for a minute, even with the right one; other addresses are not")
    func guessingIsSlowed() {
        var gate = PasswordGate(key: key)
        let mallory = peer("mallory")
        let start = ContinuousClock.now
        for second in 0..<5 {
            let at = start + .seconds(second)
            #expect(gate.refusal(of: mallory, from: "10.0.0.66", request: request(wrongKey, for: mallory), at: at) == .wrongPassword)
        }
        let locked = GameError.tooManyWrongPasswords(5, period: .seconds(60))
        #expect(gate.refusal(of: mallory, from: "10.0.0.66", request: request(key, for: mallory), at: start + .seconds(10)) == locked)
        let bob = peer("bob")
        #expect(gate.refusal(of: bob, from: "10.0.0.2", request: request(key, for: bob), at: start + .seconds(10)) == nil)
        // A minute after the first failure, one more try is allowed.
        #expect(gate.refusal(of: mallory, from: "10.0.0.66", request: request(key, for: mallory), at: start + .seconds(61)) == nil)
    }
}
