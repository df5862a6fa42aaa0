import MultipeerUnicastDNS

/// `guessnum doctor`: the checks, in order, of why players might not find or reach a game.
///
/// 1. the D-Bus system bus; 2. avahi-daemon; 3. the network interfaces; 4. this machine's own
/// advertisement, seen by its own browser; 5. games of other machines on the LAN; 6. firewall
/// rules on mDNS (UDP 5353) and the game's TCP port; 7. the addresses a host would announce;
/// 8. with a site's zone given or named by the network, its DNS server and whether the key lets this machine publish.
/// Each check is bounded in time; those that need something missing (root, a tool, the daemon)
/// are skipped and say why.
public struct Doctor: Sendable {
    /// The machine looked at.
    public var system: DoctorSystem
    /// The game's TCP port whose firewall rules are checked (`--port`); nil when the host picks one.
    public var port: Int?
    /// The site's zones whose servers and key are checked (`--dns-domain`…, the site's files,
    /// or the network's search domain); nil for none.
    public var site: SiteZones?

    public init(system: DoctorSystem, port: Int?, site: SiteZones? = nil) {
        self.system = system
        self.port = port
        self.site = site
    }

    /// Runs every check in order, handing each to `report` as soon as it is done.
    public func run(report: (DoctorCheck) -> Void = { _ in }) async -> DoctorReport {
        var checks: [DoctorCheck] = []
        func add(_ check: DoctorCheck) {
            checks.append(check)
            report(check)
        }
        let bus = SystemBusCheck.run(system)
        add(bus)
        let avahi = await AvahiDaemonCheck.run(system, busReachable: bus.status != .failed)
        add(avahi)
        let interfaces = system.interfaces()
        add(InterfacesCheck.run(interfaces))
        // The site's zone is asked first (and told last): games published there are games from
        // other machines, whether or not multicast brings any.
        let siteChecks = if let site { await SiteZoneCheck.run(site) } else { [DoctorCheck]() }
        let siteGames = siteChecks.first { $0.id == SiteZoneCheck.serverID && $0.status == .ok }?.items ?? []
        for check in await AdvertisementCheck.run(system, avahiRunning: avahi.status == .ok, siteGames: siteGames) { add(check) }
        add(await FirewallCheck.run(system, port: port))
        add(AnnouncedAddressesCheck.run(interfaces))
        for check in siteChecks { add(check) }
        return DoctorReport(checks: checks)
    }
}
