import EventBus
import Foundation
import Multipeer

/// A line of chat on the wire.
struct ChatLine: SessionMessage {
    static let messageType = "chat"
    var text: String
}

/// Prints what happens in a session and sends each line of standard input as chat.
///
/// The host relays every guest's line to the other guests, so everyone reads everything.
struct ChatRelay: Sendable {
    enum Ending { case signal, endOfInputOrHostGone }

    let session: Session
    private let observations: [EventObservation]

    init(session: Session) {
        self.session = session
        let me = session.localPeer
        let isHost = { @Sendable in session.listeningPort != nil }
        observations = [
            session.events.observe(.stateChanged) { change in
                switch change.state {
                case .connected where isHost(): Output.line("\(change.peer.displayName) joined.")
                case .notConnected where change.reason != .invitationEnded && change.reason != .localDisconnect:
                    Output.line("\(change.peer.displayName) left\(Self.describe(change.reason)).")
                default: break
                }
            },
            session.events.observe(.dataReceived) { received in
                guard let line = try? received.decode(ChatLine.self) else {
                    Output.line("(ignored a message from \(received.peer.displayName) that this version cannot read)")
                    return
                }
                let text = TextSanitizer.printable(line.text)
                if isHost() {
                    Output.line("\(received.peer.displayName): \(text)")
                    let others = session.connectedPeers.filter { $0 != received.peer && $0 != me }
                    try? session.send(ChatLine(text: "\(received.peer.displayName): \(text)"), to: others)
                } else {
                    Output.line(text)
                }
            },
            session.events.observe(.sessionDiagnostic) { diagnostic in
                Output.line("(\(diagnostic.source): \(diagnostic.error.message))")
            },
        ]
    }

    /// Relays input until the session should end, then says goodbye.
    func run(until ending: Ending, leaving reason: String?) async {
        let lines = StandardInput.lines()
        let hostGone = session.events.stream(.stateChanged)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await line in lines {
                    let text = line.trimmingCharacters(in: .whitespaces)
                    guard !text.isEmpty else { continue }
                    do throws(MultipeerError) {
                        if session.listeningPort != nil {
                            try session.sendToAll(ChatLine(text: "\(session.localPeer.displayName): \(text)"))
                        } else {
                            try session.sendToAll(ChatLine(text: text))
                        }
                    } catch {
                        Output.line(error.message)
                    }
                }
            }
            group.addTask { await Signals.wait() }
            if ending == .endOfInputOrHostGone {
                group.addTask {
                    for await change in hostGone where change.state == .notConnected { return }
                }
            }
            // The host keeps serving after its input ends; a guest leaves with its input.
            if ending == .signal {
                _ = await group.next()
                if !Signals.received { _ = await group.next() }
            } else {
                _ = await group.next()
            }
            group.cancelAll()
        }
        await session.disconnect(reason: reason)
        withExtendedLifetime(observations) {}
    }

    private static func describe(_ reason: DisconnectReason?) -> String {
        switch reason {
        case .goodbye(let text?): " (\(text))"
        case .lost(let error): ": \(error.message.dropLast())"
        default: ""
        }
    }
}
