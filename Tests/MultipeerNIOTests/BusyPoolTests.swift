import Foundation
import Multipeer
import MultipeerTestSupport
import Testing

/// A session keeps time on a thread of its own: work that takes every thread of Swift's
/// cooperative pool must not stop its heartbeats, or its peers take it for gone.
@Suite("A busy cooperative pool", .timeLimit(.minutes(2)))
struct BusyPoolTests {
    @Test("A host whose cooperative pool is blocked for 3 s by other work keeps its guest: the guest, timing out after 2.5 s, still hears its heartbeats")
    func hostKeepsItsLinks() async throws {
        // Host and guest are processes of their own, with the product's timers (a heartbeat each
        // second, a peer lost after 2.5 s of silence), so that blocking the host's pool stops
        // nothing of this test process.
        let host = try ChildProcess(try builtExecutable(named: "SessionPeer"), ["host", "alice"])
        defer { host.signal(SIGKILL) }
        let banner = try #require(await host.line(containing: "on port"), "host output: \(host.text)")
        let port = try #require(Int(banner.split(separator: " ").first { $0.hasSuffix(".") && Int($0.dropLast()) != nil }?.dropLast() ?? ""))
        let guest = try ChildProcess(try builtExecutable(named: "SessionPeer"), ["join", "bob", "127.0.0.1:\(port)"])
        defer { guest.signal(SIGKILL) }
        #expect(await host.line(containing: "bob joined") != nil, "host: \(host.text) guest: \(guest.text)")

        host.send(line: "/block-pool 3000")
        let waited = try #require(await host.line(containing: "for the pool"), "host: \(host.text)")
        let milliseconds = Int(waited.split(separator: " ").dropFirst(3).first ?? "") ?? 0
        #expect(milliseconds >= 2_500, "the pool was blocked for longer than the guest's peer timeout: \(waited)")

        guest.send(line: "still here")
        #expect(await host.line(containing: "bob: still here") != nil, "host: \(host.text) guest: \(guest.text)")
        #expect(!host.text.contains("bob left"), "the host lost its guest: \(host.text)")
        #expect(!guest.text.contains("left") && !guest.text.contains("lost"), "the guest lost its host: \(guest.text)")
        guest.closeInput()
        #expect(await guest.exitStatus() == 0, "guest: \(guest.text)")
    }
}
