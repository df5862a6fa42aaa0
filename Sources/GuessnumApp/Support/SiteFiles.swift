import Foundation
import Multipeer
import MultipeerUnicastDNS

/// What a site's administrator hands out for games across subnets, in the user's configuration
/// directory (`$XDG_CONFIG_HOME/guessnum/`, else `~/.config/guessnum/`):
///
/// - `site-dns.conf`, for everyone: `domain games.example.org` and, when the zone's server is
///   not the one its SOA record names, `server 10.0.0.53`; for hosts, `ttl SECONDS`, how long a
///   game stays listed after its host died without withdrawing it (60 by default, 3 to 3600;
///   the host refreshes it three times within it) (`#` starts a comment);
/// - `site-dns.key`, for hosts: the TSIG key, as `tsig-keygen`, `keymgr` or `nsupdate -y`
///   write it, readable by its owner alone (mode 0600).
public struct SiteFiles: Sendable, Hashable {
    /// The zone `site-dns.conf` names, if any.
    public var domain: String?
    /// The server `site-dns.conf` names, if any.
    public var server: String?
    /// The TTL `site-dns.conf` sets for published games, if any.
    public var ttl: UInt32?
    /// The key `site-dns.key` holds, if the file is there.
    public var key: TSIGKey?

    /// The files' contents, given directly.
    public init(domain: String? = nil, server: String? = nil, ttl: UInt32? = nil, key: TSIGKey? = nil) {
        self.domain = domain
        self.server = server
        self.ttl = ttl
        self.key = key
    }

    /// The files in `directory`; absent files give nothing.
    /// - Throws: ``AppFailure`` (usage) with a sentence: a line that is not a setting, a key
    ///   file others can read, or one that is not a key.
    public init(in directory: URL) throws(AppFailure) {
        let conf = directory.appendingPathComponent("site-dns.conf")
        if let text = try? String(contentsOf: conf, encoding: .utf8) {
            for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = rawLine.prefix { $0 != "#" }.trimmingCharacters(in: .whitespaces)
                guard !line.isEmpty else { continue }
                let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
                switch (words.first, words.count) {
                case ("domain", 2): domain = words[1]
                case ("server", 2): server = words[1]
                case ("ttl", 2):
                    guard let seconds = UInt32(words[1]), (3...3_600).contains(seconds) else {
                        throw AppFailure("\(conf.path), line \(index + 1): the ttl is a number of seconds from 3 to 3600.", .usage)
                    }
                    ttl = seconds
                default:
                    throw AppFailure("\(conf.path), line \(index + 1): “\(line)” is not a setting; the file takes `domain NAME`, `server ADDRESS` and `ttl SECONDS`.", .usage)
                }
            }
        }
        let keyFile = directory.appendingPathComponent("site-dns.key")
        var status = stat()
        guard stat(keyFile.path, &status) == 0 else { return }
        guard status.st_mode & 0o077 == 0, status.st_uid == getuid() else {
            throw AppFailure("The site's DNS key \(keyFile.path) can be read by other users of this machine: make it yours alone (chmod 600 \(keyFile.path)).", .usage)
        }
        key = try Self.key(at: keyFile.path)
    }

    /// The key in the file at `path`.
    /// - Throws: ``AppFailure`` (usage) when it cannot be read, or is not a key.
    public static func key(at path: String) throws(AppFailure) -> TSIGKey {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw AppFailure("Could not read the DNS key file \(path): \(error.localizedDescription).", .usage, underlying: error)
        }
        do { return try TSIGKey(parsing: text) } catch {
            throw AppFailure("The DNS key file \(path): \(error.message)", .usage, underlying: error)
        }
    }
}
