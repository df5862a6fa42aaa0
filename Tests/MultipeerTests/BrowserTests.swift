import Foundation
import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Testing

@Suite("Advertising and browsing over in-memory discovery", .timeLimit(.minutes(1)))
struct BrowserTests {
    let service = try! ServiceType("guessnum")

    @Test("A peer reported several times is found once, updated once, lost once")
    func duplicateSightings() async throws {
        try await withSessions { scope in
            let network = InMemoryNetwork(sightingsPerAnnouncement: 3)
            let host = scope.session(localPeer: peer("alice"), transport: network)
            try await host.startListening()
            let advertiser = Advertiser(session: host, serviceType: service, discoveryInfo: try DiscoveryInfo(["r": "1-100"]), discovery: network.discovery)
            let browser = Browser(serviceType: service, localPeer: peer("bob"), discovery: network.discovery)
            let events = EventLog(browser.events, .browserEvent)
            try await browser.start()
            try await advertiser.start()
            #expect(await eventually { browser.peers.count == 1 })
            #expect(browser.peers.first?.peer == host.localPeer)
            #expect(browser.peers.first?.info["r"] == "1-100")
            try await advertiser.update(DiscoveryInfo(["r": "1-50"]))
            #expect(await eventually { browser.peers.first?.info["r"] == "1-50" })
            await advertiser.stop()
            #expect(await eventually { browser.peers.isEmpty })
            // A later peer's arrival marks the end: any extra report about alice would come first.
            let carol = scope.session(localPeer: peer("carol"), transport: network)
            try await carol.startListening()
            try await Advertiser(session: carol, serviceType: service, discovery: network.discovery).start()
            #expect(await eventually { browser.peers.map(\.peer) == [carol.localPeer] })
            #expect(await events.count(atLeast: 4) { _ in true } == 4)
            let kinds = events.all.map { event -> String in
                switch event {
                case .found: "found"
                case .updated: "updated"
                case .lost: "lost"
                case .failed: "failed"
                }
            }
            #expect(kinds == ["found", "updated", "lost", "found"])
            await browser.stop()
            await carol.disconnect()
            await host.disconnect()
        }
    }

    @Test("A browser never reports its own peer")
    func ignoresSelf() async throws {
        try await withSessions { scope in
            let network = InMemoryNetwork()
            let me = scope.session(localPeer: peer("alice"), transport: network)
            try await me.startListening()
            try await Advertiser(session: me, serviceType: service, discovery: network.discovery).start()
            let browser = Browser(serviceType: service, localPeer: me.localPeer, discovery: network.discovery)
            try await browser.start()
            // Another peer, advertised later, is found: by then our own advertisement has been
            // reported to the browser too, and must have been dropped.
            let other = scope.session(localPeer: peer("bob"), transport: network)
            try await other.startListening()
            try await Advertiser(session: other, serviceType: service, discovery: network.discovery).start()
            #expect(await eventually { !browser.peers.isEmpty })
            #expect(browser.peers.map(\.peer) == [other.localPeer])
            await browser.stop()
            await other.disconnect()
            await me.disconnect()
        }
    }

    @Test("Browsing can stop and start many times; each start sees the current peers")
    func restart() async throws {
        try await withSessions { scope in
            let network = InMemoryNetwork()
            let host = scope.session(localPeer: peer("alice"), transport: network)
            try await host.startListening()
            try await Advertiser(session: host, serviceType: service, discovery: network.discovery).start()
            let browser = Browser(serviceType: service, localPeer: peer("bob"), discovery: network.discovery)
            for _ in 0..<10 {
                try await browser.start()
                #expect(await eventually { browser.peers.count == 1 })
                await browser.stop()
                #expect(browser.peers.isEmpty)
                #expect(!browser.isBrowsing)
            }
            await host.disconnect()
        }
    }

    @Test("A found peer can be invited and joins the session")
    func inviteFound() async throws {
        try await withSessions { scope in
            let network = InMemoryNetwork()
            let host = scope.session(localPeer: peer("alice"), transport: network)
            try await host.startListening()
            try await Advertiser(session: host, serviceType: service, discovery: network.discovery).start()
            let guest = scope.session(localPeer: peer("bob"), transport: network)
            let states = EventLog(guest.events, .stateChanged)
            let browser = Browser(serviceType: service, localPeer: guest.localPeer, discovery: network.discovery)
            try await browser.start()
            #expect(await eventually { !browser.peers.isEmpty })
            let found = try #require(browser.peers.first)
            #expect(try await guest.invite(found) == .connected(host.localPeer))
            #expect(states.states(of: host.localPeer) == [.connecting, .connected])
            #expect(try await guest.invite(found) == .connected(host.localPeer), "inviting a connected peer is a no-op")
            await guest.disconnect()
            await host.disconnect()
        }
    }

    @Test("Two hosts with one name are both visible under distinct names, and the second hears it was renamed")
    func nameCollision() async throws {
        try await withSessions { scope in
            let network = InMemoryNetwork()
            var hosts: [Session] = []
            var logs: [EventLog<PublicationEvent>] = []
            for _ in 0..<2 {
                let host = scope.session(localPeer: peer("alice"), transport: network)
                logs.append(EventLog(host.events, .advertiserEvent))
                try await host.startListening()
                try await Advertiser(session: host, serviceType: service, discovery: network.discovery).start()
                hosts.append(host)
            }
            let browser = Browser(serviceType: service, localPeer: peer("bob"), discovery: network.discovery)
            try await browser.start()
            #expect(await eventually { browser.peers.count == 2 })
            #expect(Set(browser.peers.map(\.peer.displayName)) == ["alice", "alice #2"])
            #expect(logs[0].all == [.established])
            #expect(logs[1].all == [.renamed("alice #2"), .established])
            for host in hosts { await host.disconnect() }
        }
    }

    @Test("Advertising needs a listening session, and a dead discovery service is a clear error")
    func advertisingErrors() async throws {
        try await withSessions { scope in
            let network = InMemoryNetwork()
            let host = scope.session(localPeer: peer("alice"), transport: network)
            let advertiser = Advertiser(session: host, serviceType: service, discovery: network.discovery)
            await #expect(throws: MultipeerError.notListening) { try await advertiser.start() }
            try await host.startListening()
            network.discovery.isAvailable = false
            let error = await #expect(throws: MultipeerError.self) { try await advertiser.start() }
            #expect(error?.code == .discoveryUnavailable)
            #expect(!advertiser.isAdvertising)
            await host.disconnect()
        }
    }

    @Test("Fixed-address discovery reports its list")
    func fixedAddresses() async throws {
        let alice = DiscoveredPeer(peer: peer("alice"), endpoints: [try Endpoint(parsing: "10.0.0.2:7777")], info: DiscoveryInfo())
        let browser = Browser(serviceType: service, localPeer: peer("bob"), discovery: FixedAddressDiscovery([alice]))
        try await browser.start()
        #expect(browser.peers == [alice])
    }
}
