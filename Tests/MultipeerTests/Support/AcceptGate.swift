import Dispatch
import EventBus
import Multipeer
import MultipeerTestSupport
import MultipeerTesting

/// An in-memory network for a host whose ACCEPT frames are held back at the connection until the
/// test lets them go: the test looks at the host while it is handing an ACCEPT over.
final class AcceptGate: TappedNetwork, @unchecked Sendable {  // immutable; its parts are thread-safe
    private let held = DispatchSemaphore(value: 0)
    /// Whether an ACCEPT is being held now.
    let holding = Watched(false)

    init(_ network: InMemoryNetwork) {
        let (held, holding) = (held, holding)
        // Called with an ACCEPT being sent: holds it (the sending thread) until ``release()``.
        let hold: @Sendable () -> Void = {
            holding.withLock { $0 = true }
            held.wait()
            holding.withLock { $0 = false }
        }
        super.init(network, tapping: .accepting) { inner in
            WrappingHandler(inner) { Gated($0, hold: hold) }
        }
    }

    /// Lets the held ACCEPT go on.
    func release() { held.signal() }

    /// A connection whose ACCEPT frames wait for the gate.
    private final class Gated: ForwardingConnection, @unchecked Sendable {  // immutable
        let hold: @Sendable () -> Void
        init(_ base: any Connection, hold: @escaping @Sendable () -> Void) {
            self.hold = hold
            super.init(base)
        }
        override func send(_ frame: EncodedFrame) {
            if frame.bytes.count > WireProtocol.lengthPrefixBytes, frame.bytes[WireProtocol.lengthPrefixBytes] == Self.acceptKind { hold() }
            base.send(frame)
        }
        /// ACCEPT's kind byte (PROTOCOL.md §3.2).
        static let acceptKind: UInt8 = 0x02
    }
}
