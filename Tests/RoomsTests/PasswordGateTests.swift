import Foundation
@testable import Rooms
import Multipeer
import MultipeerTestSupport
import Testing

@Suite("Password gate", .timeLimit(.minutes(1)))
struct PasswordGateTests {
    let host = UUID()
    let password = try! GamePassword("open sesame")

    /// A guest's exchange of `password` for this game, and its request.
    func guest(_ name: String, password: String) throws -> (PeerID, PasswordExchange.Guest, JoinRequest) {
        let guest = peer(name)
        let exchange = PasswordExchange.Guest(password: try GamePassword(password), guest: guest.identity, host: host)
        return (guest, exchange, JoinRequest(passwordExchange: exchange.opening))
    }

    @Test("The right password confirms on both sides and its charge is refunded; a wrong one fails at the guest and stays charged")
    func exchanges() throws {
        var gate = PasswordGate(password: password, host: host)
        let now = ContinuousClock.now
        let hostPeer = peer("alice")
        let (bob, bobs, bobsRequest) = try guest("bob", password: "open sesame")
        let (challenge, keys, charge) = try gate.challenge(bob, from: "10.0.0.2", request: bobsRequest, at: now).get()
        #expect(gate.chargeCount == 1)
        let answer = try bobs.answer(host: hostPeer, challenge: challenge).get()
        try keys.checkInitiatorTag(Array(answer))
        gate.refund(charge)
        #expect(gate.chargeCount == 0)

        let (carol, carols, carolsRequest) = try guest("carol", password: "open says me")
        let (wrong, _, _) = try gate.challenge(carol, from: "10.0.0.3", request: carolsRequest, at: now).get()
        #expect(carols.answer(host: hostPeer, challenge: wrong) == .failure(InvitationAnswerRefusal(GameError.passwordNotConfirmed(host: "alice").message)))
        #expect(gate.chargeCount == 1)
    }

    @Test("No exchange needs the password; a malformed one is charged and refused")
    func malformed() throws {
        var gate = PasswordGate(password: password, host: host)
        let now = ContinuousClock.now
        #expect(throws: GameError.passwordNeeded) { try gate.challenge(peer("bob"), from: "10.0.0.2", request: JoinRequest(), at: now).get() }
        #expect(gate.chargeCount == 0)
        for opening in [Data(count: 48), Data(repeating: 0xff, count: 48), Data(count: 3)] {
            #expect(throws: GameError.malformedPasswordExchange) {
                try gate.challenge(peer("mallory"), from: "10.0.0.66", request: JoinRequest(passwordExchange: opening), at: now).get()
            }
        }
        #expect(gate.chargeCount == 3)
    }

    @Test("Bob's exchange presented under Carol's identity, or for another host, does not confirm")
    func bound() throws {
        var gate = PasswordGate(password: password, host: host)
        let (_, bobs, bobsRequest) = try guest("bob", password: "open sesame")
        let (challenge, _, _) = try gate.challenge(peer("carol"), from: "10.0.0.2", request: bobsRequest, at: .now).get()
        #expect(throws: InvitationAnswerRefusal.self) { try bobs.answer(host: peer("alice"), challenge: challenge).get() }
        // A relay with an identity of its own in the middle: the guest's exchange names the relay.
        var real = PasswordGate(password: password, host: UUID())
        let (bob, _, _) = try guest("bob", password: "open sesame")
        let (relayed, _, _) = try real.challenge(bob, from: "10.0.0.2", request: bobsRequest, at: .now).get()
        #expect(throws: InvitationAnswerRefusal.self) { try bobs.answer(host: peer("alice"), challenge: relayed).get() }
    }

    @Test("Five failed exchanges from one network lock it out for a minute, even with the right password; other networks are not")
    func guessingIsSlowed() throws {
        var gate = PasswordGate(password: password, host: host)
        let start = ContinuousClock.now
        for second in 0..<5 {
            let (mallory, _, request) = try guest("mallory", password: "guess \(second)")
            _ = try gate.challenge(mallory, from: "10.0.0.66", request: request, at: start + .seconds(second)).get()
        }
        let locked = GameError.tooManyWrongPasswords(5, period: .seconds(60))
        let (mallory, _, right) = try guest("mallory", password: "open sesame")
        #expect(throws: locked) { try gate.challenge(mallory, from: "10.0.0.66", request: right, at: start + .seconds(10)).get() }
        let (bob, _, bobsRequest) = try guest("bob", password: "open sesame")
        #expect(throws: Never.self) { try gate.challenge(bob, from: "10.0.0.2", request: bobsRequest, at: start + .seconds(10)).get() }
        // A minute after the first failure, one more try is allowed.
        #expect(throws: Never.self) { try gate.challenge(mallory, from: "10.0.0.66", request: right, at: start + .seconds(61)).get() }
    }

    @Test("An IPv6 network counts as one by its /64: sixty-four addresses of it get five guesses in all")
    func ipv6Networks() throws {
        var gate = PasswordGate(password: password, host: host)
        let now = ContinuousClock.now
        var refused = 0
        for index in 1...64 {
            let (mallory, _, request) = try guest("mallory", password: "guess \(index)")
            if case .failure = gate.challenge(mallory, from: "2001:db8:0:1::\(String(index, radix: 16))", request: request, at: now) { refused += 1 }
        }
        #expect(refused == 59)
        let (bob, _, request) = try guest("bob", password: "open sesame")
        #expect(throws: Never.self) { try gate.challenge(bob, from: "2001:db8:0:2::1", request: request, at: now).get() }
    }

    @Test("Thirty failed exchanges from all networks together close the gate to everyone for the period")
    func overallBudget() throws {
        var gate = PasswordGate(password: password, host: host)
        let start = ContinuousClock.now
        for index in 0..<30 {
            let (mallory, _, request) = try guest("mallory", password: "guess \(index)")
            _ = try gate.challenge(mallory, from: "10.0.\(index / 4).\(index % 4 + 1)", request: request, at: start).get()
        }
        let (bob, _, request) = try guest("bob", password: "open sesame")
        #expect(throws: GameError.tooManyWrongPasswordsOverall(30, period: .seconds(60))) {
            try gate.challenge(bob, from: "10.9.9.9", request: request, at: start + .seconds(30)).get()
        }
        #expect(throws: Never.self) { try gate.challenge(bob, from: "10.9.9.9", request: request, at: start + .seconds(60)).get() }
        #expect(gate.chargeCount == 1)
    }
}
