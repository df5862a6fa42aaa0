import Foundation
import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Rooms
import Testing

/// Message resume (PROTOCOL §5.5): what a peer sent just before its link dropped reaches the
/// other side once, in order, when the same two sessions connect again. All on the in-memory
/// network's manual clock: a drop is noticed when the test moves the clock past the peer timeout.
@Suite("Messages across a dropped link", .timeLimit(.minutes(1)))
struct MessageResumeTests {
    @Test("1,000 messages each way across 20 random cuts arrive once each, in order")
    func thousandAcrossCuts() async throws {
        var random = SplitMix64(seed: 44)
        let cuts = Set(Array(1..<1_000).shuffled(using: &random).prefix(20))
        try await withTwoPeers { peers async throws in
            try await peers.connect()
            let host = peers.host.localPeer, guest = peers.guest.localPeer
            var next = 0
            var reconnections = 0
            while next < 1_000 {
                try peers.guest.send(Data("g\(next)".utf8), to: [host])
                try peers.host.send(Data("h\(next)".utf8), to: [guest])
                next += 1
                guard cuts.contains(next) else { continue }
                // The link goes silent both ways; what is on its way is lost with it, and a few
                // more are sent into it before either side notices.
                peers.network.severConnections(toPort: peers.port)
                for _ in 0..<Int.random(in: 0...3, using: &random) where next < 1_000 {
                    try peers.guest.send(Data("g\(next)".utf8), to: [host])
                    try peers.host.send(Data("h\(next)".utf8), to: [guest])
                    next += 1
                }
                await peers.network.advanceTime(by: peers.host.configuration.peerTimeout + peers.host.configuration.heartbeatInterval / 2)
                #expect(await eventually { peers.host.connectedPeers.isEmpty && peers.guest.connectedPeers.isEmpty }, "both noticed cut \(reconnections + 1)")
                #expect(try await peers.guest.invite(peers.endpoint) == .connected(host))
                #expect(await eventually { peers.host.connectedPeers == [guest] })
                reconnections += 1
            }
            let arrived = await eventually { peers.hostData.all.count >= 1_000 && peers.guestData.all.count >= 1_000 }
            #expect(arrived, "host has \(peers.hostData.all.count), guest \(peers.guestData.all.count)")
            #expect(reconnections == 20)
            #expect(peers.hostData.all.map { String(decoding: $0.payload, as: UTF8.self) } == (0..<1_000).map { "g\($0)" })
            #expect(peers.guestData.all.map { String(decoding: $0.payload, as: UTF8.self) } == (0..<1_000).map { "h\($0)" })
        }
    }

    @Test("What went out just before a drop is posted as sent again, with its payloads, once the peer is back")
    func resentArePosted() async throws {
        try await withTwoPeers { peers async throws in
            let resent = EventLog(peers.guest.events, .messagesResent)
            try await peers.connect()
            let host = peers.host.localPeer
            try peers.guest.send(Data("before".utf8), to: [host])
            #expect(await eventually { peers.hostData.all.count == 1 })
            peers.network.severConnections(toPort: peers.port)
            try peers.guest.send(Data("45".utf8), messageType: "guess", to: [host])
            try peers.guest.send(Data("hi".utf8), messageType: "chat", to: [host])
            await peers.network.advanceTime(by: peers.host.configuration.peerTimeout + peers.host.configuration.heartbeatInterval / 2)
            #expect(await eventually { peers.guest.connectedPeers.isEmpty })
            #expect(try await peers.guest.invite(peers.endpoint) == .connected(host))
            let posted = await resent.first { $0.peer == host }
            #expect(posted?.messages.map(\.messageType) == ["guess", "chat"])
            #expect(posted?.messages.map { String(decoding: $0.payload, as: UTF8.self) } == ["45", "hi"])
            #expect(posted?.messages.allSatisfy { $0.peer == peers.guest.localPeer } == true, "each names its sender")
            #expect(await eventually { peers.hostData.all.count == 3 })
            #expect(peers.hostData.all.map { String(decoding: $0.payload, as: UTF8.self) } == ["before", "45", "hi"])
        }
    }

    @Test("A peer that comes back as a new session (a restarted program, same identity) starts afresh: nothing meant for its predecessor reaches it")
    func restartedPeerStartsAfresh() async throws {
        let network = InMemoryNetwork()
        try await withTwoPeers(network: network) { peers async throws in
            try await peers.connect()
            let alice = peers.host.localPeer
            peers.network.severConnections(toPort: peers.port)
            try peers.guest.send(Data("for the old host".utf8), to: [alice])
            await peers.network.advanceTime(by: peers.host.configuration.peerTimeout + peers.host.configuration.heartbeatInterval / 2)
            #expect(await eventually { peers.guest.connectedPeers.isEmpty })
            await peers.host.disconnect()

            let restarted = Session(localPeer: alice, transport: network)
            let data = EventLog(restarted.events, .dataReceived)
            let port = try await restarted.startListening()
            #expect(try await peers.guest.invite(Endpoint(host: InMemoryNetwork.host, port: port)) == .connected(alice))
            try peers.guest.send(Data("for the new host".utf8), to: [alice])
            #expect(await eventually { data.all.count == 1 })
            await network.advanceTime(by: .seconds(1))
            #expect(data.all.map { String(decoding: $0.payload, as: UTF8.self) } == ["for the new host"])
            await restarted.disconnect()
        }
    }

    @Test("Data before the peer's RESUME breaks the protocol; so does an acknowledgement of more than was sent")
    func outOfTurn() async throws {
        try await withTwoPeers { peers async throws in
            let (early, mallory) = try await peers.rawGuest(sendsResume: false)
            early.send(.data(messageType: nil, payload: Data("too soon".utf8)))
            let change = await peers.hostStates.first { $0.peer == mallory && $0.state == .notConnected }
            guard case .lost(let error)? = change?.reason else {
                Issue.record("expected mallory dropped, got \(String(describing: change))")
                return
            }
            #expect(error.code == .protocolViolation)
            #expect(error.message.contains("a data frame before its resume"), "\(error.message)")
            #expect(peers.hostData.all.isEmpty, "nothing of it was delivered")
        }
        try await withTwoPeers { peers async throws in
            let (raw, mallory) = try await peers.rawGuest()
            try peers.host.send(Data("one".utf8), to: [mallory])
            raw.send(.acknowledge(received: 2))
            let change = await peers.hostStates.first { $0.peer == mallory && $0.state == .notConnected }
            guard case .lost(let error)? = change?.reason else {
                Issue.record("expected mallory dropped, got \(String(describing: change))")
                return
            }
            #expect(error.message.contains("an acknowledgement of 2 messages"), "\(error.message)")
        }
    }

    @Test("Each side's RESUME names the other's incarnation while it is remembered: on a return within the resume window, not after it, and not after a goodbye")
    func incarnationRemembered() async throws {
        var configuration = SessionConfiguration()
        configuration.messageResumeWindow = .seconds(10)
        try await withTwoPeers(configuration: configuration) { peers async throws in
            let mallory = peer("mallory")
            func join(as incarnation: UInt64) async throws -> (RawConnection, Frame.Resume) {
                let (raw, _) = try await peers.rawGuest(named: mallory, incarnation: incarnation)
                let frames = await raw.frames(until: { $0.contains { if case .resume = $0 { true } else { false } } }, before: .now + .seconds(30))
                guard let resume = frames.lazy.compactMap({ if case .resume(let resume) = $0 { resume } else { nil } }).first else {
                    throw TestFailure("no resume from the host: \(frames)")
                }
                return (raw, resume)
            }
            func drop(_ raw: RawConnection) async {
                raw.close()
                #expect(await eventually { peers.host.connectedPeers.isEmpty })
            }
            let (first, met) = try await join(as: 7)
            #expect(met.knownIncarnation == 0, "a peer never met")
            #expect(met.received == 0)
            first.send(.data(messageType: nil, payload: Data("one".utf8)))
            #expect(await eventually { peers.hostData.all.count == 1 })
            await drop(first)

            await peers.network.advanceTime(by: .seconds(9))
            let (second, back) = try await join(as: 7)
            #expect(back.incarnation == met.incarnation)
            #expect(back.knownIncarnation == 7, "within the window: remembered")
            #expect(back.received == 1, "with what it has")
            await drop(second)

            await peers.network.advanceTime(by: .seconds(11))
            let (third, late) = try await join(as: 7)
            #expect(late.knownIncarnation == 0, "after the window: forgotten")
            third.send(.goodbye(reason: "bye"))
            #expect(await eventually { peers.host.connectedPeers.isEmpty })

            let (_, afterGoodbye) = try await join(as: 7)
            #expect(afterGoodbye.knownIncarnation == 0, "after a goodbye: forgotten")
        }
    }

    @Test("A peer that never acknowledges costs a bounded memory: past the limit its messages are no longer kept, and its next link starts afresh")
    func neverAcknowledges() async throws {
        var configuration = SessionConfiguration()
        configuration.maximumRetainedMessages = 8
        try await withTwoPeers(configuration: configuration) { peers async throws in
            let mallory = peer("mallory")
            let (raw, _) = try await peers.rawGuest(named: mallory, incarnation: 9)
            await peers.network.settle()  // its RESUME is in: the link has synced
            for index in 0..<20 { try peers.host.send(Data("m\(index)".utf8), to: [mallory]) }
            #expect(await eventually { raw.receivedFrames.count { if case .data = $0 { true } else { false } } == 20 }, "every message still goes out")
            #expect(peers.hostLog.all.contains { $0.message == "Peer acknowledges too little; its messages are no longer kept for a resume." })
            raw.close()
            #expect(await eventually { peers.host.connectedPeers.isEmpty })
            let (again, _) = try await peers.rawGuest(named: mallory, incarnation: 9)
            let frames = await again.frames(until: { $0.contains { if case .resume = $0 { true } else { false } } }, before: .now + .seconds(30))
            let resume = frames.lazy.compactMap { if case .resume(let resume) = $0 { resume } else { nil } }.first
            #expect(resume?.knownIncarnation == 0)
        }
    }

    @Test("A link whose peer never says RESUME is closed once more messages wait for it than may be kept")
    func neverResumes() async throws {
        var configuration = SessionConfiguration()
        configuration.maximumRetainedMessages = 8
        try await withTwoPeers(configuration: configuration) { peers async throws in
            let (raw, mallory) = try await peers.rawGuest(sendsResume: false)
            for index in 0..<9 { try peers.host.send(Data("m\(index)".utf8), to: [mallory]) }
            let change = await peers.hostStates.first { $0.peer == mallory && $0.state == .notConnected }
            guard case .lost(let error)? = change?.reason else {
                Issue.record("expected mallory dropped, got \(String(describing: change))")
                return
            }
            #expect(error.message.contains("no resume while 8 messages waited"), "\(error.message)")
            #expect(!raw.receivedFrames.contains { if case .data = $0 { true } else { false } }, "nothing was written before its RESUME")
        }
    }

    @Test("A peer without message resume (an older program) gets no RESUME and its messages flow as before")
    func olderPeer() async throws {
        try await withTwoPeers { peers async throws in
            let (raw, mallory) = try await peers.rawGuest(features: WireProtocol.Feature.streams | WireProtocol.Feature.resources)
            try peers.host.send(Data("hello".utf8), to: [mallory])
            raw.send(.data(messageType: nil, payload: Data("hi".utf8)))
            #expect(await eventually { peers.hostData.all.count == 1 })
            let frames = await raw.frames(until: { $0.contains { if case .data = $0 { true } else { false } } }, before: .now + .seconds(30))
            #expect(!frames.contains { if case .resume = $0 { true } else { false } })
        }
    }
}

