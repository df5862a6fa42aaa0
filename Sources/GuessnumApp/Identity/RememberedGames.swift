import Foundation
import GuessnumGame
import Multipeer
import MultipeerPOSIX

/// The games this player joined before, and where: tried directly when discovery finds nothing
/// or cannot work (Wi-Fi that filters multicast, no avahi-daemon), and listed as "remembered"
/// if their host answers there with the key it had.
///
/// The file is `$XDG_DATA_HOME/guessnum/remembered_games.json` (beside `known_hosts`): the last
/// ``limit`` games joined, the most recent first. A damaged file is set aside with a sentence,
/// never fatal: games are remembered anew from the next join.
public struct RememberedGames: Sendable {
    /// One game joined before.
    public struct Game: Codable, Sendable, Equatable {
        /// The host's name when it was joined.
        public var name: String
        /// The host's identity (the first half of its key's fingerprint), which it must prove.
        public var identity: UUID
        /// Where it was reached (`HOST:PORT`), in the order tried.
        public var endpoints: [String]
        /// Whether the game asked for a password.
        public var isPrivate: Bool
        /// When it was last joined.
        public var joined: Date

        /// The game as the list of games shows it, to be tried at its remembered addresses.
        public var listing: DiscoveredPeer? {
            guard let peer = try? PeerID(displayName: name, identity: identity) else { return nil }
            let advertisement = GameAdvertisement(range: nil, playerCount: nil, maximumPlayers: nil, round: nil, isPrivate: isPrivate)
            return DiscoveredPeer(peer: peer, endpoints: endpoints.compactMap { try? Endpoint(parsing: $0) }, info: advertisement.discoveryInfo)
        }
    }

    /// How many games are remembered.
    public static let limit = 10

    /// The file.
    public let fileURL: URL

    public init(fileURL: URL) {
        self.fileURL = fileURL
    }

    /// The standard file: under `XDG_DATA_HOME`, or `~/.local/share` when it is unset.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> RememberedGames {
        RememberedGames(fileURL: XDGDirectory.data(environment: environment).appendingPathComponent("guessnum/remembered_games.json"))
    }

    /// The games remembered, the most recent first, and a sentence if the file was damaged (it
    /// is then moved aside to `….damaged`).
    public func read() -> (games: [Game], problem: String?) {
        guard let data = try? Data(contentsOf: fileURL) else { return ([], nil) }
        do {
            return (try Self.decoder.decode([Game].self, from: data), nil)
        } catch {
            let aside = fileURL.appendingPathExtension("damaged")
            try? FileManager.default.removeItem(at: aside)
            try? FileManager.default.moveItem(at: fileURL, to: aside)
            return ([], "The remembered games in \(fileURL.path) could not be read, so it was moved to \(aside.path); games are remembered anew from your next join.")
        }
    }

    /// Remembers that the game of `name` (identity `identity`) was joined at `endpoints` now,
    /// in place of what was remembered of that host.
    /// - Throws: ``AppFailure`` of kind ``AppFailure/Code/storage`` when the file cannot be
    ///   written, with the sentence that names it.
    public func remember(_ name: String, identity: UUID, endpoints: [Endpoint], isPrivate: Bool, at now: Date = Date()) throws(AppFailure) {
        let game = Game(name: name, identity: identity, endpoints: endpoints.map(\.description), isPrivate: isPrivate, joined: now)
        var unencodable: AppFailure?
        do {
            // Read and written under the file's lock: two joins at once both keep their game.
            try PrivateFiles.update(fileURL, what: "remembered games") { current throws(MultipeerError) in
                var kept: [Game] = []
                if let current {
                    if let games = try? Self.decoder.decode([Game].self, from: current) {
                        kept = games.filter { $0.identity != identity }
                    } else {
                        // Damaged: kept aside, as reading the list does, and remembered anew.
                        try? PrivateFiles.write(current, to: fileURL.appendingPathExtension("damaged"), what: "damaged remembered games")
                    }
                }
                let encoder = JSONEncoder()
                encoder.dateEncodingStrategy = .iso8601
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                do { return try encoder.encode(Array(([game] + kept).prefix(Self.limit))) } catch {
                    unencodable = AppFailure(
                        "Could not save the remembered games in \(fileURL.path) (\(error.localizedDescription)).", .storage, underlying: error)
                    throw .cancelled  // leaves the file as it was; `unencodable` says why
                }
            }
        } catch {
            throw unencodable ?? AppFailure(storing: error)
        }
    }

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}
