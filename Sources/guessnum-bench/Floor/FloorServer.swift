import NIOCore
import NIOPosix

/// The connections floor's server side, on the event-loop group a session uses: answers every
/// request with a reply, and every `period` writes one broadcast frame to each connection, from
/// the connection's own event loop, as a host's tick does.
final class FloorServer: Sendable {
    /// Each event loop's connections, touched only on that loop.
    private let connections: [ObjectIdentifier: NIOLoopBoundBox<[ObjectIdentifier: any Channel]>]
    private let tasks: [RepeatedTask]
    let requestBytes: Int
    let reply: ByteBuffer

    /// A server whose clients send `requestBytes`-byte requests, answered with `replyBytes`,
    /// and which broadcasts `broadcastBytes` to each of them every `period`.
    init(group: MultiThreadedEventLoopGroup, requestBytes: Int, replyBytes: Int, broadcastBytes: Int, period: TimeAmount) {
        var connections: [ObjectIdentifier: NIOLoopBoundBox<[ObjectIdentifier: any Channel]>] = [:]
        var tasks: [RepeatedTask] = []
        let broadcast = FloorFrame.make(FloorFrame.broadcast, bytes: broadcastBytes)
        for loop in group.makeIterator() {
            let box = NIOLoopBoundBox.makeBoxSendingValue([ObjectIdentifier: any Channel](), eventLoop: loop)
            connections[ObjectIdentifier(loop)] = box
            tasks.append(loop.scheduleRepeatedTask(initialDelay: period, delay: period) { _ in
                for channel in box.value.values { channel.writeAndFlush(broadcast, promise: nil) }
            })
        }
        self.connections = connections
        self.tasks = tasks
        self.requestBytes = requestBytes
        reply = FloorFrame.make(FloorFrame.reply, bytes: replyBytes)
    }

    /// A handler for one connection.
    func handler() -> FloorServerHandler { FloorServerHandler(server: self) }

    func added(_ channel: any Channel) {
        connections[ObjectIdentifier(channel.eventLoop)]?.value[ObjectIdentifier(channel)] = channel
    }

    func removed(_ channel: any Channel) {
        connections[ObjectIdentifier(channel.eventLoop)]?.value[ObjectIdentifier(channel)] = nil
    }

    /// Stops broadcasting.
    func stop() {
        for task in tasks { task.cancel() }
    }
}

/// One connection of the floor's server: counts request bytes, answers each whole request.
final class FloorServerHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let server: FloorServer
    private var received = 0

    init(server: FloorServer) {
        self.server = server
    }

    func channelActive(context: ChannelHandlerContext) {
        server.added(context.channel)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        server.removed(context.channel)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        received += Self.unwrapInboundIn(data).readableBytes
        while received >= server.requestBytes {
            received -= server.requestBytes
            context.write(wrapOutboundOut(server.reply), promise: nil)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.flush()
        context.fireChannelReadComplete()
    }
}
