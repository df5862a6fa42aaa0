import Foundation

/// A frame turned into bytes once, ready to be written to any number of connections.
public struct EncodedFrame: Sendable, Hashable {
    /// The length prefix, the kind byte and the body.
    public let bytes: [UInt8]

    /// The length the prefix announces: the kind byte plus the body.
    public var frameLength: Int { bytes.count - WireProtocol.lengthPrefixBytes }
}

/// Encodes and decodes frames: `length (UInt32, big-endian) | kind (UInt8) | body`.
///
/// Transports call ``frameLength(prefix:maximum:)`` as soon as four bytes have arrived, so an
/// oversized frame is refused before anything is allocated for it, then ``decode(_:)`` on the
/// `length` bytes that follow.
public enum FrameCodec {
    /// Encodes `frame`.
    public static func encode(_ frame: Frame) -> EncodedFrame {
        var writer = ByteWriter()
        writer.reserveLengthPrefix()
        switch frame {
        case .hello(let hello):
            writer.write(FrameKind.hello.rawValue)
            writer.writeIntroduction(version: hello.version, peer: hello.peer)
            writer.write(hello.invitationTimeoutMilliseconds)
            writer.write(hello.codeCommitment)
            if hello.version >= 3 { writer.write(hello.features) }
            writer.write(hello.context)
        case .accept(let accept):
            writer.write(FrameKind.accept.rawValue)
            writer.writeIntroduction(version: accept.version, peer: accept.peer)
            writer.write(accept.codeNonce)
            if accept.version >= 3 { writer.write(accept.features) }
            writer.write(accept.challenge)
        case .decline(let decline):
            writer.write(FrameKind.decline.rawValue)
            writer.write(decline.cause.rawValue)
            writer.write(Array((decline.reason ?? "").utf8))
        case .data(let messageType, let payload):
            writer.write(FrameKind.data.rawValue)
            writer.writeShortString(messageType ?? "")
            writer.write(payload)
        case .heartbeat:
            writer.write(FrameKind.heartbeat.rawValue)
        case .goodbye(let reason):
            writer.write(FrameKind.goodbye.rawValue)
            writer.write(Array((reason ?? "").utf8))
        case .reveal(let nonce, let answer):
            writer.write(FrameKind.reveal.rawValue)
            writer.write(nonce)
            writer.write(answer)
        case .streamOpen(let id, let name):
            writer.write(FrameKind.streamOpen.rawValue)
            writer.write(id)
            writer.write(Array(name.utf8))
        case .streamData(let id, let bytes):
            writer.write(FrameKind.streamData.rawValue)
            writer.write(id)
            writer.write(bytes)
        case .streamWindow(let id, let credit):
            writer.write(FrameKind.streamWindow.rawValue)
            writer.write(id)
            writer.write(credit)
        case .streamClose(let id, let end, let reason):
            writer.write(FrameKind.streamClose.rawValue)
            writer.write(id)
            writer.write(end.rawValue)
            writer.write(Array((reason ?? "").utf8))
        case .resourceOffer(let offer):
            writer.write(FrameKind.resourceOffer.rawValue)
            writer.write(offer.streamID)
            writer.write(offer.transfer)
            writer.write(offer.size)
            writer.write(offer.digest)
            writer.write(Array(offer.name.utf8))
        case .resourceAnswer(let transfer, let verdict, let offset, let reason):
            writer.write(FrameKind.resourceAnswer.rawValue)
            writer.write(transfer)
            writer.write(verdict.rawValue)
            writer.write(offset)
            writer.write(Array((reason ?? "").utf8))
        case .resourceResult(let transfer, let outcome, let reason):
            writer.write(FrameKind.resourceResult.rawValue)
            writer.write(transfer)
            writer.write(outcome.rawValue)
            writer.write(Array((reason ?? "").utf8))
        case .resourceHeld(let held):
            writer.write(FrameKind.resourceHeld.rawValue)
            writer.write(held.transfer)
            writer.write(held.chunkBytes)
            writer.write(held.chunks)
            writer.write(held.root)
        case .resume(let resume):
            writer.write(FrameKind.resume.rawValue)
            writer.write(resume.incarnation)
            writer.write(resume.knownIncarnation)
            writer.write(resume.received)
        case .acknowledge(let received):
            writer.write(FrameKind.acknowledge.rawValue)
            writer.write(received)
        }
        return EncodedFrame(bytes: writer.finishWithLengthPrefix())
    }

    /// Reads a frame's length from its 4-byte prefix and checks it against `maximum`.
    ///
    /// - Returns: the number of bytes (kind and body) that follow the prefix.
    /// - Throws: ``MultipeerError/Code/frameTooLarge`` above `maximum`,
    ///   ``MultipeerError/Code/malformedFrame`` for a zero length.
    public static func frameLength(prefix: UInt32, maximum: Int) throws(MultipeerError) -> Int {
        if prefix == 0 { throw .malformedFrame("a frame of length zero") }
        if UInt64(prefix) > UInt64(maximum) { throw .frameTooLarge(Int(prefix), limit: maximum) }
        return Int(prefix)
    }

    /// Decodes one frame from its kind byte and body (the bytes after the length prefix).
    /// - Throws: ``MultipeerError/Code/malformedFrame``.
    public static func decode(_ bytes: UnsafeRawBufferPointer) throws(MultipeerError) -> Frame {
        var names = MessageTypeNames()
        return try decode(bytes, names: &names)
    }

    /// Decodes one frame from its kind byte and body (the bytes after the length prefix), a DATA
    /// frame's message type taken from `names` when it is kept there (and kept otherwise): what
    /// a connection's reader passes, frame after frame.
    /// - Throws: ``MultipeerError/Code/malformedFrame``.
    public static func decode(_ bytes: UnsafeRawBufferPointer, names: inout MessageTypeNames) throws(MultipeerError) -> Frame {
        var reader = ByteReader(bytes)
        let kindByte = try reader.readUInt8()
        guard let kind = FrameKind(rawValue: kindByte) else {
            throw .malformedFrame("unknown frame kind 0x\(String(kindByte, radix: 16))")
        }
        switch kind {
        case .hello:
            let (version, peer) = try reader.readIntroduction()
            let timeout = try reader.readUInt32()
            // Version 1 had no commitment: its HELLO still decodes, to be declined politely.
            let commitment = version >= 2 ? try reader.readBytes(VerificationCode.nonceBytes, "code commitment") : []
            // Version 2 had no features: its HELLO still decodes, to be declined politely.
            let features = version >= 3 ? try reader.readUInt32("features") : 0
            return .hello(.init(
                version: version, peer: peer, invitationTimeoutMilliseconds: timeout, codeCommitment: commitment, features: features,
                context: reader.readRemainingData()))
        case .accept:
            let (version, peer) = try reader.readIntroduction()
            // Version 1 had neither: its ACCEPT still decodes, to be refused politely.
            guard version >= 2 else {
                try reader.expectEnd()
                return .accept(.init(version: version, peer: peer, codeNonce: []))
            }
            let nonce = try reader.readBytes(VerificationCode.nonceBytes, "code nonce")
            let features = version >= 3 ? try reader.readUInt32("features") : 0
            return .accept(.init(version: version, peer: peer, codeNonce: nonce, features: features, challenge: reader.readRemainingData()))
        case .decline:
            let causeByte = try reader.readUInt8()
            let cause = Frame.Decline.Cause(rawValue: causeByte) ?? .refused
            let reason = try reader.readRemainingString()
            return .decline(.init(cause: cause, reason: reason.isEmpty ? nil : reason))
        case .data:
            let type = try reader.readMessageType(names: &names)
            return .data(messageType: type, payload: reader.readRemainingData())
        case .heartbeat:
            try reader.expectEnd()
            return .heartbeat
        case .goodbye:
            let reason = try reader.readRemainingString()
            return .goodbye(reason: reason.isEmpty ? nil : reason)
        case .reveal:
            let nonce = try reader.readBytes(VerificationCode.nonceBytes, "code nonce")
            return .reveal(nonce: nonce, answer: reader.readRemainingData())
        case .streamOpen:
            let id = try reader.readStreamID()
            let name = try reader.readRemainingString()
            if let problem = StreamName.problem(with: name) { throw .malformedFrame("a stream name that \(problem)") }
            return .streamOpen(id: id, name: name)
        case .streamData:
            let id = try reader.readStreamID()
            let bytes = reader.readRemainingData()
            if bytes.isEmpty { throw .malformedFrame("a stream data frame without data") }
            return .streamData(id: id, bytes: bytes)
        case .streamWindow:
            let id = try reader.readStreamID()
            let credit = try reader.readUInt32("credit")
            try reader.expectEnd()
            if credit == 0 || credit > WireProtocol.maximumStreamCredit {
                throw .malformedFrame("a stream window update of \(credit) bytes")
            }
            return .streamWindow(id: id, credit: credit)
        case .streamClose:
            let id = try reader.readStreamID()
            guard let end = Frame.StreamEnd(rawValue: try reader.readUInt8()) else { throw .malformedFrame("an unknown way for a stream to end") }
            let reason = try reader.readRemainingString()
            return .streamClose(id: id, end: end, reason: reason.isEmpty ? nil : reason)
        case .resourceOffer:
            let id = try reader.readStreamID()
            let transfer = try reader.readBytes(Frame.ResourceOffer.transferBytes, "transfer id")
            let size = try reader.readUInt64("size")
            let digest = try reader.readBytes(Frame.ResourceOffer.digestBytes, "digest")
            let name = try reader.readRemainingString()
            // A path is well-formed when every part is a name; whether the link allows paths at all
            // (feature `folders`) is the session's to check.
            if name.contains("/") {
                if let problem = ResourcePath.problem(with: name) { throw .malformedFrame("a resource path that \(problem)") }
            } else if let problem = ResourceName.problem(with: name) {
                throw .malformedFrame("a resource name that \(problem)")
            }
            return .resourceOffer(.init(streamID: id, transfer: transfer, size: size, digest: digest, name: name))
        case .resourceAnswer:
            let transfer = try reader.readBytes(Frame.ResourceOffer.transferBytes, "transfer id")
            guard let verdict = Frame.ResourceVerdict(rawValue: try reader.readUInt8()) else { throw .malformedFrame("an unknown answer to a resource offer") }
            let offset = try reader.readUInt64("offset")
            let reason = try reader.readRemainingString()
            return .resourceAnswer(transfer: transfer, verdict: verdict, offset: offset, reason: reason.isEmpty ? nil : reason)
        case .resourceResult:
            let transfer = try reader.readBytes(Frame.ResourceOffer.transferBytes, "transfer id")
            guard let outcome = Frame.ResourceOutcome(rawValue: try reader.readUInt8()) else { throw .malformedFrame("an unknown outcome of a resource") }
            let reason = try reader.readRemainingString()
            return .resourceResult(transfer: transfer, outcome: outcome, reason: reason.isEmpty ? nil : reason)
        case .resourceHeld:
            let transfer = try reader.readBytes(Frame.ResourceOffer.transferBytes, "transfer id")
            let chunkBytes = try reader.readUInt32("chunk size")
            let chunks = try reader.readUInt64("chunk count")
            let root = try reader.readBytes(Frame.ResourceHeld.rootBytes, "root")
            try reader.expectEnd()
            if chunkBytes == 0 { throw .malformedFrame("held chunks of 0 bytes") }
            return .resourceHeld(.init(transfer: transfer, chunkBytes: chunkBytes, chunks: chunks, root: root))
        case .resume:
            let incarnation = try reader.readUInt64("incarnation")
            let known = try reader.readUInt64("known incarnation")
            let received = try reader.readUInt64("received count")
            try reader.expectEnd()
            if incarnation == 0 { throw .malformedFrame("a resume from incarnation 0") }
            return .resume(.init(incarnation: incarnation, knownIncarnation: known, received: received))
        case .acknowledge:
            let received = try reader.readUInt64("received count")
            try reader.expectEnd()
            return .acknowledge(received: received)
        }
    }

    /// Decodes one frame from its kind byte and body.
    public static func decode(_ bytes: some Collection<UInt8>) throws(MultipeerError) -> Frame {
        let array = Array(bytes)
        do {
            return try array.withUnsafeBytes { buffer in try decode(buffer) }
        } catch let error as MultipeerError {
            throw error
        } catch {
            throw MultipeerError.malformedFrame("\(error)").causedBy(error)
        }
    }
}
