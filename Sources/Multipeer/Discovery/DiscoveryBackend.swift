/// Announces sessions and finds them: the seam between the library and a discovery system.
///
/// `MultipeerTesting` provides an in-memory backend and a fixed-address one; the Avahi
/// (DNS-SD over mDNS) backend lives in its own module. Backends report what they see; the
/// ``Browser`` merges repeated sightings of one peer and hides this side's own.
public protocol DiscoveryBackend: Sendable {
    /// Starts announcing `advertisement`; `onEvent` hears about renames and failures.
    /// - Throws: ``MultipeerError/Code/discoveryUnavailable``, ``MultipeerError/Code/discoveryFailed``.
    func publish(
        _ advertisement: Advertisement,
        onEvent: @escaping @Sendable (PublicationEvent) -> Void
    ) async throws(MultipeerError) -> any Publication

    /// Starts looking for `serviceType`; `onEvent` hears every sighting and disappearance.
    /// - Throws: ``MultipeerError/Code/discoveryUnavailable``, ``MultipeerError/Code/discoveryFailed``.
    func browse(
        _ serviceType: ServiceType,
        onEvent: @escaping @Sendable (DiscoveryEvent) -> Void
    ) async throws(MultipeerError) -> any BrowseOperation
}

/// What a session announces.
public struct Advertisement: Sendable, Hashable {
    /// The kind of service, such as `guessnum`.
    public var serviceType: ServiceType
    /// The advertising peer; its display name is the service's instance name.
    public var peer: PeerID
    /// The port its session listens on.
    public var port: Int
    /// The facts announced with it.
    public var info: DiscoveryInfo

    public init(serviceType: ServiceType, peer: PeerID, port: Int, info: DiscoveryInfo) {
        self.serviceType = serviceType
        self.peer = peer
        self.port = port
        self.info = info
    }
}

/// A running announcement.
public protocol Publication: Sendable {
    /// Replaces the announced facts in place.
    func update(_ info: DiscoveryInfo) async throws(MultipeerError)
    /// Withdraws the announcement (browsers elsewhere see the peer lost).
    func cancel() async
}

/// A running search.
public protocol BrowseOperation: Sendable {
    /// Stops searching.
    func cancel() async
}

/// What a backend reports about an announcement.
public enum PublicationEvent: Sendable, Hashable {
    /// The name was taken on the network; the service is announced under `name` instead.
    case renamed(String)
    /// The announcement failed or was interrupted (for example, the daemon stopped).
    case failed(MultipeerError)
    /// The announcement is (again) visible on the network.
    case established
}

/// What a backend reports while browsing.
public enum DiscoveryEvent: Sendable, Hashable {
    /// A peer was seen (possibly again, possibly with new facts).
    case found(DiscoveredPeer)
    /// A peer's announcement went away.
    case lost(PeerID)
    /// Browsing failed or was interrupted.
    case failed(MultipeerError)
}
