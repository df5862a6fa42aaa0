import Foundation
import Multipeer
import Testing

/// What the byte-stream tests check, over whichever transport connected `host` and `guest`
/// (the in-memory network and TCP with TLS run the same scenarios). Every wait ends on its
/// event; the bounds only catch a hang.
public struct StreamScenarios: Sendable {
    public let host: Session
    public let guest: Session
    public let hostStreams: EventLog<IncomingStream>
    public let guestStreams: EventLog<IncomingStream>
    public let hostData: EventLog<ReceivedData>
    public let guestData: EventLog<ReceivedData>

    /// Scenarios for two sessions that are about to connect (make it before inviting, so no
    /// post is missed).
    public init(host: Session, guest: Session) {
        self.host = host
        self.guest = guest
        hostStreams = EventLog(host.events, .streamOpened)
        guestStreams = EventLog(guest.events, .streamOpened)
        hostData = EventLog(host.events, .dataReceived)
        guestData = EventLog(guest.events, .dataReceived)
    }

    /// `count` bytes that differ from one offset to the next, seeded so two streams differ.
    public static func pattern(_ count: Int, seed: UInt8) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8 &+ Int(seed)) })
    }

    /// Every byte of `stream`, read to its end.
    public static func readAll(_ stream: IncomingStream) async throws(MultipeerError) -> Data {
        var bytes = Data()
        for try await chunk in stream.chunks { bytes.append(chunk) }
        return bytes
    }

    /// The stream named `name` that `log`'s session was posted.
    public static func incoming(_ log: EventLog<IncomingStream>, named name: String) async throws -> IncomingStream {
        guard let stream = await log.first(where: { $0.name == name }) else { throw TestFailure("no stream \(name) arrived") }
        return stream
    }

    /// The guest writes a window's worth to a host that does not read: it all goes, the next
    /// write waits for credit while messages still flow both ways, and once the host reads,
    /// the write completes and every byte arrives in order.
    public func pausedReader() async throws {
        let window = guest.configuration.streamWindow
        let writer = try await guest.openStream(named: "bulk", to: host.localPeer)
        let incoming = try await Self.incoming(hostStreams, named: "bulk")
        #expect(incoming.peer == guest.localPeer)
        let data = Self.pattern(window + 40_000, seed: 1)
        try await writer.write(data.prefix(window))  // all the credit there is: no wait
        let rest = Locked(false)
        let tail = Task {
            try await writer.write(data.dropFirst(window))
            rest.withLock { $0 = true }
        }
        // Meanwhile messages flow both ways on the same link.
        try guest.send(Chat(text: "to the host"), to: [host.localPeer])
        try host.send(Chat(text: "to the guest"), to: [guest.localPeer])
        #expect(await hostData.first { (try? $0.decode(Chat.self)) == Chat(text: "to the host") } != nil)
        #expect(await guestData.first { (try? $0.decode(Chat.self)) == Chat(text: "to the guest") } != nil)
        // No credit is left until the host reads, so the rest cannot have gone.
        #expect(!rest.value, "the writer went past the window of a reader that did not read")
        let reading = Task { try await Self.readAll(incoming) }
        try await tail.value
        #expect(rest.value)
        writer.finish()
        #expect(try await reading.value == data)
    }

    /// Two streams from the guest and one from the host run at once with messages both ways;
    /// every stream's bytes arrive whole and in order, and the messages in order.
    public func streamsAndMessages() async throws {
        let sizes = [("a", 700_000, UInt8(2)), ("b", 300_000, UInt8(3))]
        var writes: [Task<Void, any Error>] = []
        for (name, size, seed) in sizes {
            let writer = try await guest.openStream(named: name, to: host.localPeer)
            writes.append(Task {
                try await writer.write(Self.pattern(size, seed: seed))
                writer.finish()
            })
        }
        let back = try await host.openStream(named: "c", to: guest.localPeer)
        writes.append(Task {
            try await back.write(Self.pattern(500_000, seed: 4))
            back.finish()
        })
        for index in 0..<50 {
            try guest.send(Chat(text: "g\(index)"), to: [host.localPeer])
            try host.send(Chat(text: "h\(index)"), to: [guest.localPeer])
        }
        for (name, size, seed) in sizes {
            let incoming = try await Self.incoming(hostStreams, named: name)
            #expect(try await Self.readAll(incoming) == Self.pattern(size, seed: seed), "stream \(name)")
        }
        let c = try await Self.incoming(guestStreams, named: "c")
        #expect(try await Self.readAll(c) == Self.pattern(500_000, seed: 4))
        for write in writes { try await write.value }
        #expect(await hostData.count(atLeast: 50) { $0.carries(Chat.self) } >= 50)
        #expect(try hostData.all.filter { $0.carries(Chat.self) }.map { try $0.decode(Chat.self).text } == (0..<50).map { "g\($0)" })
        #expect(await guestData.count(atLeast: 50) { $0.carries(Chat.self) } >= 50)
        #expect(try guestData.all.filter { $0.carries(Chat.self) }.map { try $0.decode(Chat.self).text } == (0..<50).map { "h\($0)" })
    }

    /// A writer's cancel ends the reader's sequence with `streamReset`, after what was sent;
    /// a reader's cancel makes the writer's waiting write throw `streamReset`.
    public func resets() async throws {
        let writer = try await guest.openStream(named: "cancelled", to: host.localPeer)
        try await writer.write(Data("some bytes".utf8))
        writer.cancel()
        let incoming = try await Self.incoming(hostStreams, named: "cancelled")
        var received = Data()
        do {
            for try await chunk in incoming.chunks { received.append(chunk) }
            Issue.record("the sequence of a reset stream ended as if finished")
        } catch {
            #expect(error.code == .streamReset)
            #expect(error.message.contains("bob"), "\(error.message)")
        }
        #expect(received == Data("some bytes".utf8))
        do {
            try await writer.write(Data([1]))
            Issue.record("a cancelled stream took a write")
        } catch {
            #expect(error.code == .cancelled)
        }

        let second = try await guest.openStream(named: "unread", to: host.localPeer)
        let unread = try await Self.incoming(hostStreams, named: "unread")
        let writing = Task {
            try await second.write(Self.pattern(guest.configuration.streamWindow * 3, seed: 5))
        }
        unread.cancel()
        do {
            try await writing.value
            Issue.record("a write to a cancelled reader completed")
        } catch let error as MultipeerError {
            #expect(error.code == .streamReset)
            #expect(error.message.contains("alice"), "\(error.message)")
        }
        // The link is unharmed.
        try guest.send(Chat(text: "still here"), to: [host.localPeer])
        #expect(await hostData.first { (try? $0.decode(Chat.self)) == Chat(text: "still here") } != nil)
    }

    /// When the link closes (`drop`), the reader's sequence ends with `streamInterrupted` after
    /// what arrived, and a write waiting for credit throws it too.
    public func linkDrop(_ drop: () async -> Void) async throws {
        let window = guest.configuration.streamWindow
        let writer = try await guest.openStream(named: "cut", to: host.localPeer)
        let incoming = try await Self.incoming(hostStreams, named: "cut")
        try await writer.write(Self.pattern(1000, seed: 6))
        // A second stream whose reader never reads: its writer waits for credit until the end.
        let stuck = try await guest.openStream(named: "stuck", to: host.localPeer)
        try await stuck.write(Self.pattern(window, seed: 7))
        let waiting = Task { try await stuck.write(Data([1, 2, 3])) }
        var received = Data()
        var iterator = incoming.chunks.makeAsyncIterator()
        while received.count < 1000, let chunk = try await iterator.next() { received.append(chunk) }
        #expect(received == Self.pattern(1000, seed: 6))
        await drop()
        do {
            while try await iterator.next() != nil {}
            Issue.record("the sequence of a stream whose link closed ended as if finished")
        } catch {
            #expect(error.code == .streamInterrupted)
            #expect(error.message.contains("bob"), "\(error.message)")
        }
        do {
            try await waiting.value
            Issue.record("a write waiting for credit went through a closed link")
        } catch let error as MultipeerError {
            #expect(error.code == .streamInterrupted)
        }
    }
}
