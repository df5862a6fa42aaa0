import Logging
import Multipeer

/// Discovery over a site's unicast DNS server (DNS-SD over unicast DNS, RFC 6763 §11), beside
/// mDNS: games are published with updates signed by the site's TSIG key and found by asking the
/// server, so they are listed across subnets that multicast does not cross.
///
/// ```swift
/// let configuration = UnicastDNSConfiguration(
///     domain: DNSName("games.example.org."), server: try Endpoint(host: "10.0.0.53", port: 53),
///     key: try TSIGKey(parsing: keyText), hostAddresses: { ["10.1.2.3"] })
/// let advertiser = Advertiser(session: session, serviceType: type, backend: UnicastDNSDiscovery(configuration: configuration))
/// ```
public struct UnicastDNSDiscovery: DiscoveryBackend {
    /// Where and how games are published and found.
    public let configuration: UnicastDNSConfiguration
    private let logger: Logger

    /// Discovery through `configuration`'s server.
    public init(configuration: UnicastDNSConfiguration, logger: Logger = Logger(label: "multipeer.unicast-dns")) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Publishes `advertisement` (its first update answered before this returns) and keeps it
    /// fresh until cancelled.
    /// - Throws: ``MultipeerError/Code/discoveryUnavailable`` without a key;
    ///   ``MultipeerError/Code/discoveryFailed`` with the server's refusal as a sentence.
    public func publish(_ advertisement: Advertisement, onEvent: @escaping @Sendable (PublicationEvent) -> Void) async throws(MultipeerError) -> any Publication {
        guard configuration.key != nil else {
            throw MultipeerError(.discoveryUnavailable, "Games cannot be published in \(configuration.domain) without the site's key: ask the DNS server's administrator for it.")
        }
        let publication = UnicastPublication(advertisement, configuration: configuration, logger: logger, onEvent: onEvent)
        try await publication.start()
        onEvent(.established)
        return publication
    }

    /// Starts asking the server for `serviceType`'s instances every poll interval.
    public func browse(_ serviceType: ServiceType, onEvent: @escaping @Sendable (DiscoveryEvent) -> Void) async throws(MultipeerError) -> any BrowseOperation {
        let browse = UnicastBrowse(serviceType, configuration: configuration, logger: logger, onEvent: onEvent)
        browse.start()
        return browse
    }
}
