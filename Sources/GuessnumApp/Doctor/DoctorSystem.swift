import Foundation
import Multipeer

/// What `guessnum doctor` looks at, passed in so that tests can give it a machine of their own:
/// the environment, whether it runs as root, files, sockets, the Avahi daemon, discovery, the
/// network interfaces and other programs.
public struct DoctorSystem: Sendable {
    /// What the Avahi daemon's client sees.
    public enum AvahiState: Sendable, Equatable {
        /// The daemon answers; `version` as it tells it (“avahi 0.8”).
        case running(version: String?)
        /// The system bus answers but the daemon is not on it.
        case notRunning
        /// Not even the connection to the daemon could be set up, with the reason.
        case unreachable(String)
    }

    /// The environment (`DBUS_SYSTEM_BUS_ADDRESS`).
    public var environment: [String: String]
    /// Whether the program runs as root (the firewall check needs it).
    public var isRoot: Bool
    /// Whether a file exists (to tell an avahi-daemon that is not installed from one that is stopped).
    public var fileExists: @Sendable (String) -> Bool
    /// Tries to connect to the system bus.
    var connectToBus: @Sendable (SystemBusAddress) -> UnixSocketProbe.Outcome
    /// Asks the Avahi daemon whether it runs.
    public var avahiState: @Sendable () async -> AvahiState
    /// Where the check's own advertisement is published and browsed for.
    public var discovery: any DiscoveryBackend
    /// This machine's network interfaces.
    public var interfaces: @Sendable () -> [NetworkInterface]
    /// Runs another program with a time limit.
    public var runProgram: @Sendable (_ executable: String, _ arguments: [String]) async -> ExternalCommand.Outcome
    /// The command that runs this program (`guessnum`, or its path), for the fixes that say to run it again.
    public var programCommand: String
    /// How long to wait for this machine's own advertisement, and for games on the LAN.
    public var listeningTime: Duration

    /// The real machine: the process's environment and user, the file system, the system bus,
    /// `getifaddrs` and `Process`, with Avahi reached through `discovery` and `avahiState`.
    public init(discovery: any DiscoveryBackend, avahiState: @escaping @Sendable () async -> AvahiState) {
        let environment = ProcessInfo.processInfo.environment
        self.init(
            environment: environment, isRoot: getuid() == 0, fileExists: { FileManager.default.fileExists(atPath: $0) },
            avahiState: avahiState, discovery: discovery, interfaces: { NetworkInterface.current() },
            runProgram: { await ExternalCommand.run($0, $1) }, programCommand: ProgramCommand.current(environment: environment))
    }

    /// A machine made of the given parts; the system bus is tried for real unless `connectToBus` is given.
    public init(
        environment: [String: String], isRoot: Bool, fileExists: @escaping @Sendable (String) -> Bool,
        avahiState: @escaping @Sendable () async -> AvahiState, discovery: any DiscoveryBackend,
        interfaces: @escaping @Sendable () -> [NetworkInterface],
        runProgram: @escaping @Sendable (String, [String]) async -> ExternalCommand.Outcome,
        programCommand: String = "guessnum", listeningTime: Duration = .seconds(3)
    ) {
        self.environment = environment
        self.isRoot = isRoot
        self.fileExists = fileExists
        self.connectToBus = { UnixSocketProbe.connect(to: $0) }
        self.avahiState = avahiState
        self.discovery = discovery
        self.interfaces = interfaces
        self.runProgram = runProgram
        self.programCommand = programCommand
        self.listeningTime = listeningTime
    }
}
