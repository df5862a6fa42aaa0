import Foundation
@testable import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Synchronization
import Testing

/// Discovery through mDNS and a site's DNS server at once: one listing per peer, with every
/// address, gone only when no backend sees it; one backend's failure does not stop the other.
@Suite("Discovery through several backends", .timeLimit(.minutes(1)))
struct MergedDiscoveryTests {
    let alice = try! PeerID(displayName: "alice")

    func seen(_ host: String, name: String = "alice") throws -> DiscoveredPeer {
        DiscoveredPeer(peer: try PeerID(displayName: name, identity: alice.identity), endpoints: [try Endpoint(host: host, port: 4242)], info: DiscoveryInfo())
    }

    @Test("A peer seen by both is told once with both addresses, the first backend's first; lost by one, it stays with the other's; lost by both, it is lost")
    func union() throws {
        let told = Mutex<[DiscoveryEvent]>([])
        let union = SightingUnion { event in told.withLock { $0.append(event) } }
        union.take(.found(try seen("10.0.2.5", name: "alice")), from: 1)  // the DNS server, whose zone lowercased nothing here
        union.take(.found(try seen("192.168.1.5", name: "Alice")), from: 0)  // mDNS
        union.take(.lost(alice), from: 0)
        union.take(.lost(alice), from: 0)  // a second loss from the same backend tells nothing
        union.take(.lost(alice), from: 1)
        let events = told.withLock { $0 }
        #expect(events.count == 4, "\(events)")
        guard events.count == 4, case .found(let both) = events[1], case .found(let left) = events[2] else { return }
        #expect(both.endpoints.map(\.host) == ["192.168.1.5", "10.0.2.5"])
        #expect(both.peer.displayName == "Alice", "the first backend's name")
        #expect(left.endpoints.map(\.host) == ["10.0.2.5"])
        #expect(events[3] == .lost(alice))
    }

    @Test("A backend's failure while another still browses is partial; the last one's is told as it is; a backend heard from again counts as browsing")
    func partialOrWhole() throws {
        let told = Mutex<[DiscoveryEvent]>([])
        let union = SightingUnion(backends: 2) { event in told.withLock { $0.append(event) } }
        let down = MultipeerError(.discoveryUnavailable, "avahi-daemon is not running.")
        union.take(.failed(down), from: 0)
        union.take(.failed(MultipeerError(.discoveryFailed, "The DNS server does not answer.")), from: 1)
        union.take(.found(try seen("10.0.2.5")), from: 1)  // the DNS server answers again
        union.take(.failed(down), from: 0)
        let events = told.withLock { $0 }
        #expect(events.count == 4, "\(events)")
        guard events.count == 4 else { return }
        #expect(events[0] == .failed(MultipeerError(.discoveryPartlyUnavailable, "avahi-daemon is not running.")))
        #expect(events[1] == .failed(MultipeerError(.discoveryFailed, "The DNS server does not answer.")), "the last one: as it is")
        #expect(events[3] == .failed(MultipeerError(.discoveryPartlyUnavailable, "avahi-daemon is not running.")), "the DNS server browses again")
    }

    struct Refusing: DiscoveryBackend {
        func publish(_ advertisement: Advertisement, onEvent: @escaping @Sendable (PublicationEvent) -> Void) async throws(MultipeerError) -> any Publication {
            throw MultipeerError(.discoveryFailed, "The DNS server refused the key.")
        }
        func browse(_ serviceType: ServiceType, onEvent: @escaping @Sendable (DiscoveryEvent) -> Void) async throws(MultipeerError) -> any BrowseOperation {
            throw MultipeerError(.discoveryUnavailable, "No DNS server.")
        }
    }

    @Test("One backend refusing is told as a failure while the other publishes and browses; both refusing is an error")
    func partialFailure() async throws {
        let told = Mutex<[PublicationEvent]>([])
        let advertisement = Advertisement(serviceType: try ServiceType("guessnum"), peer: alice, port: 4242, info: DiscoveryInfo())
        let merged = MergedDiscovery([FixedAddressDiscovery([]), Refusing()])
        let publication = try await merged.publish(advertisement) { event in told.withLock { $0.append(event) } }
        #expect(told.withLock { $0 }.contains(.failed(MultipeerError(.discoveryFailed, "The DNS server refused the key."))))
        await publication.cancel()
        let browsing = Mutex<[DiscoveryEvent]>([])
        let operation = try await merged.browse(try ServiceType("guessnum")) { event in browsing.withLock { $0.append(event) } }
        // Told as partial (the other backend browses on), in the failed backend's own words.
        #expect(browsing.withLock { $0 } == [.failed(MultipeerError(.discoveryPartlyUnavailable, "No DNS server."))], "\(browsing.withLock { $0 })")
        await operation.cancel()
        await #expect(throws: MultipeerError.self) { _ = try await MergedDiscovery([Refusing(), Refusing()]).publish(advertisement) { _ in } }
    }
}
