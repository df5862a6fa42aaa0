import Foundation
import MultipeerTestSupport

/// One line the discovery probe printed.
struct ProbeEvent: Decodable, Sendable {
    let event: String
    let t: Double
    let name: String?
    let id: String?
    let endpoints: [String]?
    let info: [String: String]?
    let code: String?
    let message: String?
    let port: Int?
}

/// A running `DiscoveryProbe`, read as a list of events.
final class ProbeProcess: Sendable {
    let process: ChildProcess

    init(_ process: ChildProcess) {
        self.process = process
    }

    var events: [ProbeEvent] {
        process.text.split(separator: "\n").compactMap { try? JSONDecoder().decode(ProbeEvent.self, from: Data($0.utf8)) }
    }

    /// The first event matching `predicate`, waiting up to `timeout`.
    func first(within timeout: Duration = .seconds(30), where predicate: (ProbeEvent) -> Bool) async -> ProbeEvent? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let match = events.first(where: predicate) { return match }
            if ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The first event matching `predicate` after the first `skipping` events.
    func next(after skipping: Int, within timeout: Duration = .seconds(30), where predicate: (ProbeEvent) -> Bool) async -> ProbeEvent? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let match = events.dropFirst(skipping).first(where: predicate) { return match }
            if ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    func send(_ command: String) {
        process.send(line: command)
    }

    func stop() {
        process.signal(SIGKILL)
    }
}

extension TestLAN {
    /// Starts the discovery probe on host `host`.
    nonisolated func probe(on host: Int, _ arguments: [String]) throws -> ProbeProcess {
        ProbeProcess(try start(on: host, [try builtExecutable(named: "DiscoveryProbe").path] + arguments))
    }
}
