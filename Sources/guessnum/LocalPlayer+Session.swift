import GuessnumApp
import Multipeer
import MultipeerNIO

extension LocalPlayer {
    /// This player's session over TCP and TLS, proving its key (and its owner's endorsement):
    /// the transport every command of the program plays and sends files on.
    func session(_ configuration: SessionConfiguration = SessionConfiguration()) throws -> Session {
        Session(localPeer: peer, transport: TCPTransport(credentials: try TLSCredentials(key: key, endorsement: endorsement)), configuration: configuration)
    }
}
