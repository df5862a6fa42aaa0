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

    @Test("Thirty failed exchanges from all networks together close the gate for the period to every network that spent its first try")
    func overallBudget() throws {
        var gate = PasswordGate(password: password, host: host)
        let start = ContinuousClock.now
        for index in 0..<30 {
            let (mallory, _, request) = try guest("mallory", password: "guess \(index)")
            _ = try gate.challenge(mallory, from: "10.0.\(index / 4).\(index % 4 + 1)", request: request, at: start).get()
        }
        let closed = GameError.tooManyWrongPasswordsOverall(30, period: .seconds(60))
        // 10.0.0.1 failed before the budget ran out; its first try past it is still there, once.
        let (mallory, _, guess) = try guest("mallory", password: "guess 30")
        #expect(throws: Never.self) { try gate.challenge(mallory, from: "10.0.0.1", request: guess, at: start + .seconds(1)).get() }
        #expect(throws: closed) { try gate.challenge(mallory, from: "10.0.0.1", request: guess, at: start + .seconds(2)).get() }
        // Its first try spent, the network is closed until the thirty are a minute old.
        #expect(throws: closed) { try gate.challenge(mallory, from: "10.0.0.1", request: guess, at: start + .seconds(59)).get() }
        #expect(throws: Never.self) { try gate.challenge(mallory, from: "10.0.0.1", request: guess, at: start + .seconds(60)).get() }
        #expect(gate.chargeCount == 2)
    }

    @Test("Under guessing from 64 IPv4 addresses and 64 IPv6 /64s, a player with the right password gets an exchange, minute after minute, and the game takes 30 guesses a minute plus each network's first try")
    func attackFromManyNetworks() throws {
        var gate = PasswordGate(password: password, host: host)
        let start = ContinuousClock.now
        let networks = (1...64).map { "10.0.1.\($0)" } + (1...64).map { "2001:db8:\(String($0, radix: 16))::1" }
        func attack(at moment: ContinuousClock.Instant) throws -> Int {
            var charged = 0
            for (index, network) in networks.enumerated() {
                for attempt in 0..<5 {
                    let (mallory, _, request) = try guest("mallory", password: "guess \(index).\(attempt)")
                    if case .success = gate.challenge(mallory, from: network, request: request, at: moment) { charged += 1 }
                }
            }
            return charged
        }
        func bobGetsIn(at moment: ContinuousClock.Instant) throws -> Bool {
            let (bob, bobs, request) = try guest("bob", password: "open sesame")
            guard case .success(let (challenge, keys, charge)) = gate.challenge(bob, from: "10.0.2.7", request: request, at: moment) else { return false }
            let answer = try bobs.answer(host: peer("alice"), challenge: challenge).get()
            try keys.checkInitiatorTag(Array(answer))
            gate.refund(charge)
            return true
        }

        #expect(try attack(at: start) == 30 + networks.count - 6, "30 in the budget (six networks' five), then one first try each for the other 122")
        #expect(try bobGetsIn(at: start + .seconds(1)))
        // A minute on, the first tries are spent for ten minutes: the budget's 30 alone.
        #expect(try attack(at: start + .seconds(61)) == 30)
        #expect(try bobGetsIn(at: start + .seconds(62)), "a confirmed first try is refunded: bob's network keeps it")
        #expect(try bobGetsIn(at: start + .seconds(63)))
        // Ten minutes after they were spent, each network has its first try again.
        #expect(try attack(at: start + .seconds(601)) == 30 + networks.count - 6)
    }

    @Test("First tries past the budget are 256 per ten minutes for the whole game: the next network waits until the oldest is ten minutes old")
    func firstTriesAreBounded() throws {
        var gate = PasswordGate(password: password, host: host)
        let start = ContinuousClock.now
        for index in 0..<(30 + 256) {
            let (mallory, _, request) = try guest("mallory", password: "guess \(index)")
            _ = try gate.challenge(mallory, from: "10.1.\(index / 200).\(index % 200 + 1)", request: request, at: start).get()
        }
        let (bob, _, request) = try guest("bob", password: "open sesame")
        #expect(throws: GameError.tooManyWrongPasswordsOverall(30, period: .seconds(60))) {
            try gate.challenge(bob, from: "10.9.9.9", request: request, at: start + .seconds(30)).get()
        }
        // The budget's thirty are a minute old: bob is within it again.
        #expect(throws: Never.self) { try gate.challenge(bob, from: "10.9.9.9", request: request, at: start + .seconds(60)).get() }
        #expect(gate.chargeCount == 1)
    }
}
