import Foundation

/// How a received transfer's end is told to its sender.
extension ResourceReceiving {
    /// How `result` is told to a sender that offers the transfer again.
    static func ended(_ result: Result<URL, MultipeerError>, session: Session) -> EndedTransfer {
        switch result {
        case .success: EndedTransfer(saved: true, reason: nil)
        case .failure(let error): EndedTransfer(saved: false, reason: error.code == .cancelled ? "\(session.localPeer.displayName) cancelled it" : reason(of: error))
        }
    }

    /// Tells the sender of `arrival` how its transfer ended, and closes the stream it offered.
    static func tell(_ ended: EndedTransfer, on arrival: ResourceArrival, session: Session) {
        session.send(.resourceResult(transfer: arrival.offer.transfer, outcome: ended.saved ? .saved : .failed, reason: ended.reason), onLink: arrival.link)
        arrival.stream.cancel()
    }

    /// The reason a RESOURCE_RESULT gives: the error's sentence after "… was not saved: ".
    static func reason(of error: MultipeerError) -> String {
        guard let range = error.message.range(of: " was not saved: ") else { return error.message }
        return String(error.message[range.upperBound...].dropLast(error.message.hasSuffix(".") ? 1 : 0))
    }
}
