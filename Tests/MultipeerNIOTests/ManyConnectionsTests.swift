import Foundation
import Multipeer
import MultipeerTestSupport
import MultipeerNIO
import Testing

@Suite("Many TCP connections", .timeLimit(.minutes(2)))
struct ManyConnectionsTests {
    /// The event-loop threads SwiftNIO runs (named `NIO-ELT-…`), where the system says (Linux).
    /// Only these count: other suites running at the same time start threads of their own.
    private func eventLoopThreadCount() -> Int? {
        #if os(Linux)
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else { return nil }
        return tasks.filter { task in
            let name = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
            return name.hasPrefix("NIO-ELT")
        }.count
        #else
        nil
        #endif
    }

    @Test func twoHundredConcurrentConnectionsOpenAndExchangeAFrame() async throws {
        let count = 200
        let transport = TCPTransport(bindHost: "127.0.0.1")
        let accepted = AcceptedHandlers(echoes: true)
        try await withListener(transport, makeHandler: accepted.make) { listener async throws in
            let endpoint = try Endpoint(host: "127.0.0.1", port: listener.port)
            let threadsBefore = eventLoopThreadCount()

            let clients = try await withThrowingTaskGroup(of: (RecordingHandler, any Connection).self) { group in
                for number in 0..<count {
                    group.addTask {
                        let handler = RecordingHandler()
                        let connection = try await transport.connect(to: endpoint, options: LinkOptions(), timeout: .seconds(10), handler: handler)
                        connection.send(FrameCodec.encode(SampleFrames.numbered(number)))
                        return (handler, connection)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(clients.count == count)
            #expect(await eventually(within: .seconds(30)) { clients.allSatisfy { $0.0.frames.count == 1 } })
            #expect(accepted.all.count == count)
            #expect(accepted.all.allSatisfy { $0.frames.count == 1 && $0.followedContract })
            // Each client got its own frame back.
            let echoed = Set(clients.compactMap { $0.0.frames.first })
            #expect(echoed == Set((0..<count).map { SampleFrames.numbered($0) }))
            if let before = threadsBefore, let after = eventLoopThreadCount() {
                #expect(after == before, "no thread per connection (\(before) → \(after) event-loop threads)")
                #expect(after <= ProcessInfo.processInfo.activeProcessorCount, "one event loop per core at most")
            }

            for (_, connection) in clients { connection.close() }
            #expect(await eventually(within: .seconds(30)) { accepted.all.allSatisfy(\.isClosed) })
            #expect(accepted.all.allSatisfy { $0.closeError == .some(nil) })
            #expect(clients.allSatisfy { $0.0.followedContract })
        }
    }
}
