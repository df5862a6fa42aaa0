import Foundation
import GuessnumGame
import Multipeer

/// Checks 4 and 5: this machine announces a short-lived service of its own type
/// (`_guessnum-doctor._tcp`, which no player's list shows) and looks for it, and meanwhile
/// looks for guessnum games on the LAN.
///
/// Seeing its own service proves that avahi-daemon announces and browses here, not that
/// multicast crosses the network; games of other machines do. None seen is a warning, since
/// nobody may be hosting, but it is also what a network that filters multicast looks like.
enum AdvertisementCheck {
    static let ownID = "advertisement"
    static let ownTitle = "own advertisement"
    static let gamesID = "games"
    static let gamesTitle = "games on the LAN"

    /// The service type the check announces, never the game's.
    static let serviceType: ServiceType = {
        do { return try ServiceType("guessnum-doctor") } catch { preconditionFailure("“guessnum-doctor” is a valid service type: \(error)") }
    }()

    /// What the browses have seen so far.
    private struct Sightings: Sendable {
        var own: DiscoveredPeer?
        var failure: MultipeerError?
        var games: [PeerID: DiscoveredPeer] = [:]
    }

    /// The two checks. `siteGames` are the games a site's zone lists (found by its DNS server):
    /// with some there, seeing none from other machines on the LAN is no sign of a filtered network.
    static func run(_ system: DoctorSystem, avahiRunning: Bool, siteGames: [String] = []) async -> [DoctorCheck] {
        guard avahiRunning else {
            let reason = "avahi-daemon is not running"
            return [
                DoctorCheck(id: ownID, title: ownTitle, status: .skipped, finding: reason),
                DoctorCheck(id: gamesID, title: gamesTitle, status: .skipped, finding: reason),
            ]
        }
        let me: PeerID
        do { me = try PeerID(displayName: "guessnum doctor " + String(UInt32.random(in: 0...UInt32.max), radix: 16)) } catch {
            preconditionFailure("the doctor's name is valid: \(error)")
        }
        let seen = Protected(Sightings())
        let started = ContinuousClock.now
        var operations: [any BrowseOperation] = []
        var publication: (any Publication)?
        do {
            operations.append(try await system.discovery.browse(GameAdvertisement.serviceType) { event in
                seen.withLock { sightings in
                    switch event {
                    case .found(let game): sightings.games[game.peer] = game
                    case .lost(let peer): sightings.games[peer] = nil
                    case .failed(let error): sightings.failure = sightings.failure ?? error
                    }
                }
            })
            operations.append(try await system.discovery.browse(serviceType) { event in
                seen.withLock { sightings in
                    switch event {
                    case .found(let found) where found.peer.identity == me.identity: sightings.own = found
                    case .failed(let error): sightings.failure = sightings.failure ?? error
                    default: break
                    }
                }
            })
            publication = try await system.discovery.publish(
                Advertisement(serviceType: serviceType, peer: me, port: 9, info: DiscoveryInfo())
            ) { event in
                if case .failed(let error) = event { seen.withLock { $0.failure = $0.failure ?? error } }
            }
        } catch {
            seen.withLock { $0.failure = $0.failure ?? error }
        }
        // Games answer within the listening time; this machine's own service may take a little longer.
        let limit = system.listeningTime + .seconds(2)
        while true {
            let now = ContinuousClock.now - started
            let state = seen.withLock { $0 }
            if state.failure != nil || now >= limit || (state.own != nil && now >= system.listeningTime) { break }
            try? await Task.sleep(for: .milliseconds(50))
        }
        await publication?.cancel()
        for operation in operations { await operation.cancel() }
        let result = seen.withLock { $0 }
        let local = Set(system.interfaces().flatMap(\.addresses).map(\.address))
        return [own(result, waited: limit), games(result, local: local, waited: system.listeningTime, siteGames: siteGames)]
    }

    private static func own(_ sightings: Sightings, waited: Duration) -> DoctorCheck {
        if let failure = sightings.failure {
            return DoctorCheck(
                id: ownID, title: ownTitle, status: .failed, finding: "could not be announced or looked for: \(failure.message)",
                fix: "restart the daemon: sudo systemctl restart avahi-daemon, then see its log: journalctl -u avahi-daemon")
        }
        guard let own = sightings.own else {
            return DoctorCheck(
                id: ownID, title: ownTitle, status: .failed,
                finding: "announced but not seen by this machine's own browser within \(waited.components.seconds) s, so avahi-daemon announces on no interface",
                fix: "check allow-interfaces and deny-interfaces in /etc/avahi/avahi-daemon.conf, then restart it: sudo systemctl restart avahi-daemon")
        }
        let addresses = Array(Set(own.endpoints.map(\.host))).sorted()
        let at = addresses.isEmpty ? "" : " at \(addresses.joined(separator: ", "))"
        return DoctorCheck(
            id: ownID, title: ownTitle, status: .ok,
            finding: "seen by this machine's own browser\(at), so avahi-daemon announces and browses here; whether other machines see it depends on the network",
            items: addresses)
    }

    private static func games(_ sightings: Sightings, local: Set<String>, waited: Duration, siteGames: [String]) -> DoctorCheck {
        guard sightings.failure == nil else {
            return DoctorCheck(id: gamesID, title: gamesTitle, status: .skipped, finding: "discovery failed")
        }
        let games = sightings.games.values.sorted { $0.peer.displayName < $1.peer.displayName }
        let isHere: (DiscoveredPeer) -> Bool = { game in game.endpoints.contains { local.contains($0.host) } }
        let items = games.map { game in
            "\(game.peer.displayName) (\(isHere(game) ? "this machine" : game.endpoints.map(\.description).joined(separator: ", ")))"
        }
        let elsewhere = games.filter { !isHere($0) }
        guard elsewhere.isEmpty else {
            return DoctorCheck(id: gamesID, title: gamesTitle, status: .ok, finding: "\(items.count) seen: \(items.joined(separator: "; "))", items: items)
        }
        let here = items.isEmpty ? "" : " (only \(items.joined(separator: "; ")))"
        if !siteGames.isEmpty {
            return DoctorCheck(
                id: gamesID, title: gamesTitle, status: .ok,
                finding: "none from other machines seen on this LAN within \(waited.components.seconds) s\(here); games are found through the site's zone instead (\(siteGames.prefix(10).joined(separator: ", ")))",
                items: items)
        }
        return DoctorCheck(
            id: gamesID, title: gamesTitle, status: .warning,
            finding: "none from other machines seen within \(waited.components.seconds) s\(here); if someone is hosting, the network likely filters multicast (mDNS) between you, as many Wi-Fi networks do",
            fix: "join with the code the host prints (guessnum join gn1-…) or its address (guessnum join ADDRESS:PORT)",
            items: items)
    }
}
