import ArgumentParser
import Foundation
import GuessnumGame
import Multipeer
import MultipeerNIO

/// `guessnum-bench`: a real host and N simulated guests over real TCP on loopback, measured
/// side by side with the machine's own limit (raw TCP on the same loopback).
@main
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "guessnum-bench",
        abstract: "Measure a guessnum host serving N guests over loopback TCP.",
        discussion: """
            Starts a real host (Session, TCP transport, a room of guess-the-number) in this process and N simulated \
            guests in worker processes, runs for --seconds, and reports guess→verdict round trips \
            (HdrHistogram), verdicts and broadcast lines delivered per second, connect time, host \
            memory, and a raw TCP baseline measured in the same run. scripts/bench runs the suite.
            """,
        subcommands: [GuestWorker.self, FloorClients.self, RawEcho.self, AttackWorker.self, ConnectBench.self, StreamBench.self, StreamPeer.self, ResourceBench.self, ListingBench.self, JoinHost.self, JoinTimeBench.self, NIOEcho.self, TLSMemoryBench.self, TLSClients.self]
    )

    @Option(help: "How many guests connect.") var guests = 1
    @Option(help: "closed: guess again as soon as the verdict arrives; paced: once a second; fanout: broadcast throughput; storm: all but one guest connect at once while a probe guesses; restart: paced, and the host crashes partway and a new one resumes the game.")
    var mode: BenchMode = .closed
    @Option(help: "How long guests guess, in seconds.") var seconds: Double = 5
    @Option(help: "Worker processes for the guests (default: 1 up to 100 guests, else 3).") var workers: Int?
    @Flag(help: "Print one JSON object instead of text.") var json = false
    @Option(help: ArgumentHelp("Experiments: the host's broadcast tick in milliseconds (default: the game's, 50).", visibility: .hidden))
    var tickMs: Int?
    @Option(help: "Seconds of raw TCP ping-pong for the baseline (default: --seconds, at most 3).")
    var baselineSeconds: Double?
    @Option(help: "Fan-out runs: frames sent back to back to all guests together.")
    var fanoutFrames = 200_000
    @Option(help: "A hostile client attacking the host meanwhile, from 127.0.0.2: nonreader, flood, seats or handshakes.")
    var attack: BenchAttack?
    @Flag(help: "Run the host and every guest over TLS 1.3, each with a key of its own, as guessnum does.")
    var tls = false
    @Flag(help: "The host keeps its game in a store (SQLite), as guessnum host does; restart runs always do.")
    var store = false
    @Flag(help: "Paced runs: then measure the connections floor at the host's load — a bare swift-nio(-ssl) server holding as many connections, answering requests of the guess's size at the same rate and broadcasting the host's mean batch as often.")
    var floor = false
    @Option(help: "Run the crowd's worker processes at this nice level (0 to 19): they stand for other machines but share the host's cores. The probe's worker keeps the normal priority.")
    var crowdNice: Int?

    func validate() throws {
        guard guests >= 1, guests <= 50_000 else { throw ValidationError("--guests must be from 1 to 50000.") }
        if mode == .storm, guests < 2 { throw ValidationError("a storm needs at least 2 guests: the probe and one more.") }
        if mode == .storm || mode == .restart, attack != nil { throw ValidationError("--attack is for closed and paced runs.") }
        guard seconds > 0, seconds <= 600 else { throw ValidationError("--seconds must be above 0 and at most 600.") }
        if let crowdNice, !(0...19).contains(crowdNice) { throw ValidationError("--crowd-nice must be from 0 to 19.") }
        if let workers, !(1...16).contains(workers) { throw ValidationError("--workers must be from 1 to 16.") }
        if let baselineSeconds, !(baselineSeconds > 0 && baselineSeconds <= 60) {
            throw ValidationError("--baseline-seconds must be above 0 and at most 60.")
        }
        guard fanoutFrames >= 1 else { throw ValidationError("--fanout-frames must be at least 1.") }
        if tls, mode == .fanout { throw ValidationError("--tls is for closed and paced runs; the fan-out's raw baseline has no TLS.") }
        if floor, mode != .paced || attack != nil { throw ValidationError("--floor is for paced runs without --attack.") }
        if tls, attack != nil { throw ValidationError("--tls cannot be combined with --attack yet: the attackers speak plaintext.") }
    }

    func run() async throws {
        BenchLogging.bootstrap()
        // A worker that has already exited must not kill the coordinator when told to quit.
        signal(SIGPIPE, SIG_IGN)
        let limit = FileLimit.raise(to: guests * 2 + 1024)
        guard limit >= guests + 256 else {
            throw ValidationError("\(guests) guests need about \(guests + 256) file descriptors, and this process may open only \(limit) (ulimit -n).")
        }
        var coordinator = Coordinator(guests: guests, mode: mode, seconds: seconds,
                                      workers: workers ?? (guests <= 100 ? 1 : 3), tickMilliseconds: tickMs, fanOutFrames: fanoutFrames,
                                      baselineSeconds: baselineSeconds ?? min(seconds, 3),
                                      machine: MachineInfo.current(descriptorLimit: limit))
        coordinator.attack = attack
        coordinator.tls = tls
        coordinator.keepsStore = store || mode == .restart
        coordinator.crowdNiceness = crowdNice
        coordinator.measuresFloor = floor
        let result = try await coordinator.run()
        print(json ? result.json : result.text)
    }
}
