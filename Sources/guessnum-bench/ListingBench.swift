import ArgumentParser
import EventBus
import Foundation
import Multipeer
import MultipeerPOSIX
import MultipeerUnicastDNS

/// `guessnum-bench listing`: how long a game takes from published to listed through a site's
/// DNS server, this library against the same records published with `knsupdate` and looked up
/// with `kdig`, polled at the same interval, in one run. Each sample publishes a new game and
/// waits until the running browse lists it; samples start at random points of the poll's
/// period, so a figure is the poll's half period plus what the questions cost. Prints a
/// sentence, or one JSON object with `--json`.
struct ListingBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listing", abstract: "Measure published → listed through a site's DNS server, against knsupdate and kdig.")

    @Option(name: .customLong("dns-domain"), help: "The zone.") var domain: String
    @Option(name: .customLong("dns-server"), help: "Its server, ADDRESS:PORT.") var server: String
    @Option(name: .customLong("dns-key"), help: "The TSIG key's file.") var keyFile: String
    @Option(help: "The address published for the games.") var address = "127.0.0.1"
    @Option(help: "Games published, for each of the two.") var samples = 20
    @Option(name: .customLong("poll-ms"), help: "How often both browsers ask, in milliseconds.") var pollMilliseconds = 1_000
    // Not `--json`: the parent command has that flag, and ArgumentParser would give it to the parent.
    @Flag(name: .customLong("print-json"), help: "Print one JSON object.") var json = false

    func run() async throws {
        let key = try TSIGKey(parsing: String(contentsOfFile: keyFile, encoding: .utf8))
        let endpoint = try Endpoint(parsing: server)
        let poll = Duration.milliseconds(pollMilliseconds)
        let configuration = UnicastDNSConfiguration(
            domain: DNSName(domain), server: endpoint, key: key, ttl: 60, pollInterval: poll, hostAddresses: { [address] })
        let ours = try await measureLibrary(configuration)
        let tools = try await measureTools(configuration, keyText: "\(key.algorithm.rawValue):\(key.name.presentation):\(key.secret)")
        let (p50, p90, toolsP50, toolsP90) = (Self.percentile(ours, 50), Self.percentile(ours, 90), Self.percentile(tools, 50), Self.percentile(tools, 90))
        if json {
            print(#"{"samples":\#(samples),"poll_ms":\#(pollMilliseconds),"listed_p50_ms":\#(p50),"listed_p90_ms":\#(p90),"# +
                #""tools_p50_ms":\#(toolsP50),"tools_p90_ms":\#(toolsP90),"ratio_p50":\#(p50 / toolsP50),"# +
                #""listed_ms":\#(ours),"tools_ms":\#(tools)}"#)
        } else {
            print("published → listed, \(samples) games, polled every \(pollMilliseconds) ms: this library p50 \(p50) ms (p90 \(p90)); knsupdate + kdig p50 \(toolsP50) ms (p90 \(toolsP90)); ratio \(p50 / toolsP50)")
        }
    }

    /// How long after the last update (the previous sample's withdrawal) a sample's update is
    /// sent, at least. Knot DNS 3.2 holds an update that arrives within a second of the previous
    /// one's answer, and in the next second by the clock, until a second after that answer (its
    /// zone events are timed in whole seconds: the NOTIFY event each update schedules for a
    /// second later hides the new update's event from the timer; `_zone_events_schedule_at` in
    /// `knot/events/events.c`). Spaced by more than a second, both methods measure the listing,
    /// not that.
    static let updateSpacing = Duration.milliseconds(1_100)

    /// Milliseconds from each `publish` call to its game listed by the running browse.
    private func measureLibrary(_ configuration: UnicastDNSConfiguration) async throws -> [Double] {
        let type = try ServiceType("guessnum")
        let listed = Watched<[UUID: ContinuousClock.Instant]>([:])
        let browse = try await UnicastDNSDiscovery(configuration: configuration).browse(type) { event in
            guard case .found(let peer) = event else { return }
            listed.withLock { if $0[peer.peer.identity] == nil { $0[peer.peer.identity] = .now } }
        }
        var latencies: [Double] = []
        for index in 0..<samples {
            try await Task.sleep(for: Self.updateSpacing + .milliseconds(Int.random(in: 0..<pollMilliseconds)))  // anywhere in the poll's period
            let peer = try PeerID(displayName: "bench-\(index)")
            let start = ContinuousClock.now
            let publication = try await UnicastDNSDiscovery(configuration: configuration).publish(
                Advertisement(serviceType: type, peer: peer, port: 4000, info: DiscoveryInfo())) { _ in }
            guard let seen = await listed.wait(until: { $0[peer.identity] != nil }, before: start + .seconds(30))[peer.identity] else {
                throw BenchFailure("game \(index) was not listed within 30 s")
            }
            latencies.append(Self.milliseconds(seen - start))
            await publication.cancel()
        }
        await browse.cancel()
        return latencies
    }

    /// Milliseconds from each `knsupdate` started to its game seen by a `kdig` poller asking what
    /// the library's browser asks (the pointers, then a new instance's SRV, TXT and address).
    private func measureTools(_ configuration: UnicastDNSConfiguration, keyText: String) async throws -> [Double] {
        let service = "_guessnum._tcp.\(DNSName(domain).description)"
        let server = configuration.server
        let dig = { @Sendable (type: String, name: String) async -> String in
            await Self.run("/usr/bin/kdig", ["@\(server.host)", "-p", "\(server.port)", "+short", type, name])
        }
        let seen = Watched<[String: ContinuousClock.Instant]>([:])
        let poller = Task {
            while !Task.isCancelled {
                let started = ContinuousClock.now
                for line in await dig("PTR", service).split(separator: "\n") {
                    let instance = String(line)
                    guard seen.value[instance] == nil else { continue }
                    _ = await dig("SRV", instance)
                    _ = await dig("TXT", instance)
                    _ = await dig("A", "gn-\(instance.prefix { $0 != "." }).\(DNSName(domain).description)")
                    seen.withLock { $0[instance] = .now }
                }
                try? await Task.sleep(until: started + configuration.pollInterval)
            }
        }
        defer { poller.cancel() }
        var latencies: [Double] = []
        for index in 0..<samples {
            try await Task.sleep(for: Self.updateSpacing + .milliseconds(Int.random(in: 0..<pollMilliseconds)))
            let label = "tools-\(index)"
            let instance = "\(label).\(service)"
            let host = "gn-\(label).\(DNSName(domain).description)"
            let script = """
                server \(server.host) \(server.port)
                zone \(DNSName(domain).description)
                update add \(service) 60 PTR \(instance)
                update add \(instance) 60 SRV 0 0 4000 \(host)
                update add \(instance) 60 TXT "pv=1" "id=\(UUID().uuidString.lowercased())" "lease=\(Int(Date().timeIntervalSince1970) + 60)"
                update add \(host) 60 A \(address)
                send

                """
            let start = ContinuousClock.now
            _ = await Self.run("/usr/bin/knsupdate", ["-y", keyText], input: script)
            guard let found = await seen.wait(until: { $0[instance] != nil }, before: start + .seconds(30))[instance] else {
                throw BenchFailure("knsupdate's game \(index) was not seen by kdig within 30 s")
            }
            latencies.append(Self.milliseconds(found - start))
            _ = await Self.run("/usr/bin/knsupdate", ["-y", keyText], input: """
                server \(server.host) \(server.port)
                zone \(DNSName(domain).description)
                update delete \(service) PTR \(instance)
                update delete \(instance)
                update delete \(host)
                send

                """)
        }
        return latencies
    }

    /// Runs a program on a thread of its own; its output.
    private static func run(_ executable: String, _ arguments: [String], input: String? = nil) async -> String {
        await onOwnThread {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            let output = Pipe()
            let stdin = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            process.standardInput = stdin
            guard (try? process.run()) != nil else { return "" }
            if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
            try? stdin.fileHandleForWriting.close()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return (Double(seconds) * 1_000 + Double(attoseconds) / 1e15).rounded()
    }

    private static func percentile(_ values: [Double], _ percent: Int) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, sorted.count * percent / 100)]
    }
}
