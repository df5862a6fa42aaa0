import Foundation
import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Testing

@Suite("Sending over the in-memory network", .timeLimit(.minutes(1)))
struct MessagingTests {
    @Test("Typed messages and raw bytes travel both ways, in order")
    func bothWays() async throws {
        try await withTwoPeers { peers async throws in
            try await peers.connect()
            for index in 0..<100 { try peers.guest.send(Chat(text: "g\(index)"), to: [peers.host.localPeer]) }
            try peers.host.send(Data([0, 1, 2, 255]), to: [peers.guest.localPeer])
            #expect(await peers.hostData.count(atLeast: 100) { $0.carries(Chat.self) } == 100)
            let texts = try peers.hostData.all.map { try $0.decode(Chat.self).text }
            #expect(texts == (0..<100).map { "g\($0)" })
            #expect(peers.hostData.all.allSatisfy { $0.peer == peers.guest.localPeer })
            let raw = try #require(await peers.guestData.first { _ in true })
            #expect(raw.messageType == nil)
            #expect(raw.payload == Data([0, 1, 2, 255]))
            #expect(throws: MultipeerError.self) { try raw.decode(Chat.self) }
        }
    }

    @Test("sendToAll reaches every connected guest and counts them, leaving out the identities excluded")
    func broadcast() async throws {
        try await withSessions { scope in
            let network = InMemoryNetwork()
            let host = scope.session(localPeer: peer("host"), transport: network, configuration: .notAboutTimeouts)
            let port = try await host.startListening()
            var logs: [EventLog<ReceivedData>] = []
            var guests: [Session] = []
            for index in 0..<5 {
                let guest = scope.session(localPeer: peer("guest\(index)"), transport: network, configuration: .notAboutTimeouts)
                logs.append(EventLog(guest.events, .dataReceived))
                _ = try await guest.invite(Endpoint(host: InMemoryNetwork.host, port: port))
                guests.append(guest)
            }
            #expect(await eventually { host.connectedPeers.count == 5 })
            #expect(try host.sendToAll(Chat(text: "round 2")) == 5)
            for log in logs {
                #expect(try await log.first { _ in true }?.decode(Chat.self) == Chat(text: "round 2"))
            }
            // Left out by identity: the third guest gets the next message, then only the one after.
            let left = guests[2].localPeer.identity
            #expect(try host.sendToAll(JSONEncoder().encode(Chat(text: "not you")), messageType: Chat.messageType, excluding: [left]) == 4)
            #expect(try host.sendToAll(Chat(text: "round 3")) == 5)
            for (index, log) in logs.enumerated() {
                let expected = index == 2 ? ["round 2", "round 3"] : ["round 2", "not you", "round 3"]
                #expect(await log.count(atLeast: expected.count) { _ in true } == expected.count)
                #expect(try log.all.map { try $0.decode(Chat.self).text } == expected, "guest \(index)")
            }
            for guest in guests { await guest.disconnect() }
            await host.disconnect()
        }
    }

    @Test("Sending to a peer that is not connected sends nothing and names the peer")
    func notConnected() async throws {
        try await withTwoPeers { peers async throws in
            try await peers.connect()
            let stranger = peer("carol")
            do {
                try peers.host.send(Chat(text: "hi"), to: [peers.guest.localPeer, stranger])
                Issue.record("expected an error")
            } catch let error as MultipeerError {
                #expect(error.code == .peerNotConnected)
                #expect(error.message.contains("carol"))
            }
            // A message sent after the refused one arrives; had the refused one gone out, it
            // would have arrived first.
            try peers.host.send(Chat(text: "marker"), to: [peers.guest.localPeer])
            #expect(await peers.guestData.first { _ in true } != nil)
            #expect(try peers.guestData.all.map { try $0.decode(Chat.self) } == [Chat(text: "marker")])
        }
    }

    @Test("Sending to one peer delivers in order with the array form, and names a peer that is not connected")
    func onePeer() async throws {
        try await withTwoPeers { peers async throws in
            try await peers.connect()
            let type = Chat.messageType
            try peers.host.send(JSONEncoder().encode(Chat(text: "one")), messageType: type, to: peers.guest.localPeer)
            try peers.host.send(Chat(text: "two"), to: [peers.guest.localPeer])
            try peers.host.send(JSONEncoder().encode(Chat(text: "three")), messageType: type, to: peers.guest.localPeer)
            #expect(await peers.guestData.count(atLeast: 3) { _ in true } == 3)
            #expect(try peers.guestData.all.map { try $0.decode(Chat.self).text } == ["one", "two", "three"])
            do {
                try peers.host.send(Data([1]), to: peer("carol"))
                Issue.record("expected an error")
            } catch let error as MultipeerError {
                #expect(error.code == .peerNotConnected)
                #expect(error.message.contains("carol"))
            }
            await peers.host.disconnect()
            #expect(throws: MultipeerError.sessionClosed) { try peers.host.send(Data([1]), to: peers.guest.localPeer) }
        }
    }

    @Test("A message larger than a frame is refused before anything is sent")
    func tooLarge() async throws {
        var configuration = SessionConfiguration()
        configuration.maximumFrameLength = 1024
        try await withTwoPeers(configuration: configuration) { peers async throws in
            try await peers.connect()
            #expect(throws: MultipeerError.self) {
                try peers.guest.send(Data(count: 2000), to: [peers.host.localPeer])
            }
            try peers.guest.send(Data(count: 1000), to: [peers.host.localPeer])
            #expect(await peers.hostData.first { $0.payload.count == 1000 } != nil)
        }
    }

    @Test("A disconnected session refuses to send")
    func closedSession() async throws {
        try await withTwoPeers { peers async throws in
            try await peers.connect()
            await peers.guest.disconnect()
            #expect(throws: MultipeerError.sessionClosed) { try peers.guest.sendToAll(Chat(text: "late")) }
            await #expect(throws: MultipeerError.sessionClosed) { _ = try await peers.guest.invite(peers.endpoint) }
        }
    }
}
