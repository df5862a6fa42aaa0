import ArgumentParser
import GuessnumApp
import GuessnumTerminal
import Logging
import Multipeer
import MultipeerAvahi
import MultipeerPOSIX
import MultipeerUnicastDNS
import Foundation

/// `guessnum doctor`: why players cannot find or reach a game, one check a line with its fix.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check why players cannot find or reach a game on this machine, and say what to do.",
        discussion: """
            Checks, in order: the D-Bus system bus; avahi-daemon; the network interfaces; that this \
            machine sees its own advertisement; the games of other machines it sees; firewall rules \
            on mDNS (UDP 5353) and the game's TCP port (needs root, skipped otherwise); the addresses \
            a host would announce; with --dns-domain, the site's DNS server and whether the key lets \
            this machine publish there. Each line ends with the fix for what failed.

            Exit status: 0 when no check failed (warnings and skipped checks do not count), 1 when \
            one did.
            """
    )

    @Option(parsing: .unconditional, help: "The game's TCP port, whose firewall rules are checked (default: the port your last game listened on; without one, only rules that drop all incoming TCP are).")
    var port: Int?

    @OptionGroup var dns: SiteDNSOptions

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if let port, !(1...65535).contains(port) { throw ValidationError("--port must be from 1 to 65535.") }
    }

    func run() async throws {
        LoggingSystem.bootstrapTerminal(level: output.logLevel, destination: LogDestination())
        let avahi = AvahiDiscovery()
        // Connecting to the daemon blocks while D-Bus answers: asked on a thread of its own.
        let system = DoctorSystem(discovery: avahi) { await onOwnThread { DoctorSystem.AvahiState(asking: avahi) } }
        let text = DoctorText(style: output.style, json: output.json)
        let site: SiteZones
        do { site = try dns.zones(environment: ProcessInfo.processInfo.environment) } catch {
            StandardStreams.writeLine(error.message)
            throw ExitCode(64)
        }
        let doctor = Doctor(system: system, port: port ?? ListeningPortMemory.standard().last, site: site)
        let report = await doctor.run { StandardStreams.writeLine(text.line($0)) }
        StandardStreams.writeLine(text.summary(report))
        withExtendedLifetime(avahi) {}
        if report.exitStatus != 0 { throw ExitCode(report.exitStatus) }
    }
}

extension DoctorSystem.AvahiState {
    /// What `avahi` answers now.
    init(asking avahi: AvahiDiscovery) {
        do throws(MultipeerError) {
            switch try avahi.daemonStatus() {
            case .running(let version): self = .running(version: version)
            case .notRunning: self = .notRunning
            }
        } catch {
            self = .unreachable(error.message)
        }
    }
}
