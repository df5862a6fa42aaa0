import Foundation
import Multipeer
@testable import MultipeerNIO
import MultipeerTestSupport
import Testing

/// Real TCP over 127.0.0.1.
@Suite("TCP transport", .timeLimit(.minutes(2)))
struct TCPTransportTests {
    @Test func exchangesFramesBothWays() async throws {
        try await LoopbackPair.with { pair async throws in
            #expect(pair.listener.port > 0)
            #expect(pair.client.events == [.opened], "opened by the time connect returns")
            #expect(pair.clientConnection.remoteDescription == "127.0.0.1:\(pair.listener.port)")
            #expect(pair.serverConnection.remoteDescription.hasPrefix("127.0.0.1:"))

            let hello = SampleFrames.all[0]
            pair.clientConnection.send(FrameCodec.encode(hello))
            #expect(await pair.server.waitForFrames(1))
            #expect(pair.server.frames == [hello])

            let accept = Frame.accept(.init(peer: SampleFrames.grace, codeNonce: SampleFrames.codeNonce))
            pair.serverConnection.send(FrameCodec.encode(accept))
            #expect(await pair.client.waitForFrames(1))
            #expect(pair.client.frames == [accept])

            pair.serverConnection.close()
            #expect(await pair.client.waitForClose())
            #expect(await pair.server.waitForClose())
            #expect(pair.client.closeError == .some(nil))
            #expect(pair.server.closeError == .some(nil))
            #expect(pair.client.followedContract)
            #expect(pair.server.followedContract)
        }
    }

    @Test func keepsTheOrderOfAThousandFramesEachWay() async throws {
        try await LoopbackPair.with { pair async throws in
            let count = 1000
            let expected = (0..<count).map { SampleFrames.numbered($0, payloadBytes: 8 + $0 % 700) }
            let clientConnection = pair.clientConnection
            let serverConnection = pair.serverConnection
            // Both directions at once, from threads other than the event loops.
            async let clientSends: Void = Task.detached { for frame in expected { clientConnection.send(FrameCodec.encode(frame)) } }.value
            async let serverSends: Void = Task.detached { for frame in expected { serverConnection.send(FrameCodec.encode(frame)) } }.value
            _ = await (clientSends, serverSends)

            #expect(await pair.server.waitForFrames(count))
            #expect(await pair.client.waitForFrames(count))
            #expect(firstDifference(pair.server.frames, expected) == nil)
            #expect(firstDifference(pair.client.frames, expected) == nil)
            pair.clientConnection.close()
            #expect(await pair.server.waitForClose())
            #expect(pair.server.followedContract)
            #expect(pair.client.followedContract)
        }
    }

    @Test func closeDeliversEveryQueuedFrameBeforeTheClose() async throws {
        // A queue budget above the 9 MB sent at once: this is about the close, not the budget.
        try await LoopbackPair.with(clientOptions: LinkOptions(maximumQueuedBytes: 64 * 1024 * 1024)) { pair async throws in
            // Megabytes, more than the socket buffers hold: most is still queued when close() is called.
            let frames = (0..<300).map { SampleFrames.numbered($0, payloadBytes: 30_000) }
            for frame in frames { pair.clientConnection.send(FrameCodec.encode(frame)) }
            pair.clientConnection.close()
            pair.clientConnection.send(FrameCodec.encode(.heartbeat))  // after close(): never sent

            #expect(await pair.server.waitForClose())
            #expect(firstDifference(pair.server.frames, frames) == nil)
            #expect(pair.server.events.last == .closed(nil), "the close comes after every frame")
            #expect(pair.server.followedContract)
            #expect(await pair.client.waitForClose())
            #expect(pair.client.closeError == .some(nil))
        }
    }

    @Test func closeWaitsForASlowReaderThatKeepsReading() async throws {
        // A reader slower than the close's grace period (a loaded machine): megabytes that the
        // socket buffers cannot hold, taken a few kilobytes at a time. It gets every frame, then
        // the end; the close never cuts a frame in half.
        let transport = TCPTransport(bindHost: "127.0.0.1")
        let accepted = AcceptedHandlers()
        let options = LinkOptions(maximumQueuedBytes: 64 * 1024 * 1024)
        try await withListener(transport, options: options, makeHandler: accepted.make) { listener async throws in
            let socket = try RawSocket(port: listener.port, readTimeoutSeconds: 30, receiveBufferBytes: 16 * 1024)
            let server = try #require(await accepted.first())
            let connection = try #require(server.connection)
            let frames = (0..<150).map { SampleFrames.numbered($0, payloadBytes: 60_000) }
            for frame in frames { connection.send(FrameCodec.encode(frame)) }
            connection.close()

            let started = ContinuousClock.now
            let (received, end) = await socket.readSlowly(pausing: .milliseconds(10))
            let expected = frames.flatMap { FrameCodec.encode($0).bytes }
            #expect(end == .closed)
            #expect(received.count == expected.count && received == expected, "\(received.count) of \(expected.count) bytes")
            #expect(ContinuousClock.now - started > .seconds(3), "slower than the grace period, or this tests nothing")
            #expect(await server.wait(within: .seconds(30)) { $0.isClosed })
            #expect(server.closeError == .some(nil))
            socket.close()
        }
    }

    @Test func closeGivesUpOnAPeerThatNeverReads() async throws {
        let transport = TCPTransport(bindHost: "127.0.0.1")
        let accepted = AcceptedHandlers()
        // A queue budget far above what is sent, so the close, not the budget, ends the connection.
        let options = LinkOptions(maximumQueuedBytes: 64 * 1024 * 1024)
        try await withListener(transport, options: options, makeHandler: accepted.make) { listener async throws in
            let socket = try RawSocket(port: listener.port)  // connects, then never reads
            let server = try #require(await accepted.first())
            let connection = try #require(server.connection)
            // Far more than the socket buffers of both sides hold.
            let frame = FrameCodec.encode(.data(messageType: nil, payload: Data(count: 60_000)))
            for _ in 0..<400 { connection.send(frame) }
            connection.close()

            #expect(await server.wait(within: .seconds(30)) { $0.isClosed }, "closed by the safety net")
            #expect(server.closeError == .some(nil))
            #expect(server.followedContract)
            socket.close()
        }
    }

    /// Marks small enough that a few frames cross them.
    static let smallBudget = LinkOptions(backlogLowWaterMark: 16 * 1024, backlogHighWaterMark: 64 * 1024, maximumQueuedBytes: 256 * 1024)

    @Test func aPeerThatStopsReadingMakesTheConnectionUnwritableUntilItReadsAgain() async throws {
        let transport = TCPTransport(bindHost: "127.0.0.1")
        let accepted = AcceptedHandlers()
        try await withListener(transport, options: Self.smallBudget, makeHandler: accepted.make) { listener async throws in
            let socket = try RawSocket(port: listener.port, readTimeoutSeconds: 2, receiveBufferBytes: 4096)
            let server = try #require(await accepted.first())
            let connection = try #require(server.connection)
            let frame = FrameCodec.encode(.data(messageType: nil, payload: Data(count: 8_000)))
            // Send until the connection says it is backlogged, well below the 256 KiB budget
            // once the socket buffers are full.
            var sent = 0
            while server.writability.isEmpty, sent < 2_000 {
                connection.send(frame)
                sent += 1
                if sent % 16 == 0 { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(server.writability.first == false, "backlogged after \(sent) frames")
            #expect(!server.isClosed)
            // Reading everything drains it.
            let reader = Task { while await socket.read(upTo: 1 << 20).end == nil {} }
            #expect(await server.wait(within: .seconds(30)) { $0.writability.last == true }, "writable again once read")
            #expect(server.writability.count.isMultiple(of: 2), "the changes alternate, starting and ending writable")
            #expect(!server.isClosed)
            #expect(server.followedContract)
            socket.close()
            await reader.value
        }
    }

    @Test func aSendPastTheQueueBudgetClosesTheConnectionAsNotReading() async throws {
        let transport = TCPTransport(bindHost: "127.0.0.1")
        let accepted = AcceptedHandlers()
        try await withListener(transport, options: Self.smallBudget, makeHandler: accepted.make) { listener async throws in
            let socket = try RawSocket(port: listener.port, receiveBufferBytes: 4096)  // never reads
            let server = try #require(await accepted.first())
            let connection = try #require(server.connection)
            let frame = FrameCodec.encode(.data(messageType: nil, payload: Data(count: 60_000)))
            // Far more than the socket buffers hold and the budget allows together.
            for _ in 0..<400 {
                connection.send(frame)
                if server.isClosed { break }
                try await Task.sleep(for: .milliseconds(2))
            }
            #expect(await server.wait(within: .seconds(30)) { $0.isClosed })
            #expect(server.closeError??.code == .peerNotReading)
            #expect(server.followedContract)
            socket.close()
        }
    }

    @Test func closingTwiceReportsTheCloseOnce() async throws {
        try await LoopbackPair.with { pair async throws in
            pair.clientConnection.close()
            pair.clientConnection.close()
            pair.serverConnection.close()
            #expect(await pair.client.waitForClose())
            #expect(await pair.server.waitForClose())
            try await Task.sleep(for: .milliseconds(50))
            #expect(pair.client.events == [.opened, .closed(nil)])
            #expect(pair.server.events == [.opened, .closed(nil)])
        }
    }

    @Test func anOversizedFrameFromTheOtherSideClosesTheConnection() async throws {
        let transport = TCPTransport(bindHost: "127.0.0.1")
        let accepted = AcceptedHandlers()
        try await withListener(transport, makeHandler: accepted.make) { listener async throws in
            let socket = try RawSocket(port: listener.port, readTimeoutSeconds: 30)
            try socket.write([0xFF, 0xFF, 0xFF, 0xF0])  // the prefix only: refused before any body arrives

            let server = try #require(await accepted.first())
            #expect(await server.waitForClose())
            #expect(server.closeError == .some(.frameTooLarge(0xFFFF_FFF0, limit: WireProtocol.defaultMaximumFrameLength)))
            #expect(server.followedContract)
            let (bytes, end) = await socket.readToEnd()
            #expect(bytes.isEmpty)
            #expect(end == .closed || end == .reset)
        }
    }

    @Test func theMaximumFrameLengthOfTheOptionsApplies() async throws {
        try await LoopbackPair.with(serverOptions: LinkOptions(maximumFrameLength: 100)) { pair async throws in
            pair.clientConnection.send(FrameCodec.encode(.data(messageType: nil, payload: Data(count: 98))))
            pair.clientConnection.send(FrameCodec.encode(.data(messageType: nil, payload: Data(count: 99))))
            #expect(await pair.server.waitForClose())
            #expect(pair.server.frames.count == 1)
            #expect(pair.server.closeError == .some(.frameTooLarge(101, limit: 100)))
            #expect(await pair.client.waitForClose())
            #expect(pair.client.closeError == .some(nil), "the client just sees the server close")
        }
    }

    @Test func endOfStreamInsideAFrameIsMalformed() async throws {
        let transport = TCPTransport(bindHost: "127.0.0.1")
        let accepted = AcceptedHandlers()
        try await withListener(transport, makeHandler: accepted.make) { listener async throws in
            let socket = try RawSocket(port: listener.port, readTimeoutSeconds: 30)
            try socket.write(FrameCodec.encode(.heartbeat).bytes + FrameCodec.encode(SampleFrames.all[0]).bytes.dropLast(3))
            socket.shutdownWriting()

            let server = try #require(await accepted.first())
            #expect(await server.waitForClose())
            #expect(server.events == [.opened, .received(.heartbeat), .closed(.malformedFrame("the connection ended inside a frame"))])
            #expect(await socket.readToEnd().end == .closed)
        }
    }

    @Test func aResetIsAnUnexpectedClose() async throws {
        let transport = TCPTransport(bindHost: "127.0.0.1")
        let accepted = AcceptedHandlers()
        try await withListener(transport, makeHandler: accepted.make) { listener async throws in
            let socket = try RawSocket(port: listener.port)
            let server = try #require(await accepted.first())
            socket.reset()

            #expect(await server.waitForClose())
            let error = try #require(server.closeError ?? nil)
            #expect(error.code == .connectionClosed)
            #expect(error.message.contains("unexpectedly"))
            #expect(server.followedContract)
        }
    }
}
