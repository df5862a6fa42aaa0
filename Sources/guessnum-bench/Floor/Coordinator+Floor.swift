import Foundation
import GuessnumGame

extension Coordinator {
    /// Measures the connections floor at the load the host's run had (`result`, whose guests'
    /// reports are `stats`) and records it beside the host's figures.
    func addFloor(to result: inout BenchResult, stats: [WorkerStats], hasProbe: Bool) async throws {
        let guessBytes = GuestWire.guess(Int64(BenchGame.rangeSize / 2)).bytes.count
        let verdictBytes = Self.sampleVerdictFrame().bytes.count
        let sample = Self.sampleBroadcast()
        let all = WorkerStats.total(of: stats)
        let (broadcasts, payloadBytes) = (all.broadcasts, all.broadcastBytes)
        // A broadcast's frame: the host's mean payload, and the frame around it.
        let broadcastBytes = broadcasts > 0 ? payloadBytes / broadcasts + (sample.frame.bytes.count - sample.payload.count) : sample.frame.bytes.count
        let start = stats.map(\.startedAt).min() ?? 0
        let end = stats.map(\.endedAt).max() ?? 0
        let span = end > start ? Double(end - start) / 1e9 : seconds
        // As often as each guest got one: the guests' broadcasts in all over the guests and the time.
        let perGuestPerSecond = Double(broadcasts) / Double(guests) / span
        let period: Duration = perGuestPerSecond > 0 ? .microseconds(Int64(1e6 / perGuestPerSecond)) : .seconds(3600)
        let floor = try await ConnectionsFloor.measure(ConnectionsFloor.Load(
            connections: guests, workers: workers, seconds: seconds, tls: tls, requestBytes: guessBytes, replyBytes: verdictBytes,
            broadcastBytes: broadcastBytes, broadcastPeriod: period, hasProbe: hasProbe, probePeriodMs: Self.probePeriodMs))
        result.connectionsFloor = floor
        result.hostCPUOverFloor = result.hostCPUPerVerdictUs.map { $0 / floor.cpuPerRequestUs }
        result.hostUserCPUOverFloor = result.hostUserCPUPerVerdictUs.map { $0 / floor.userCPUPerRequestUs }
    }
}
