import EventBus
import Foundation
import GuessnumGame
import GuessnumTerminal
import Multipeer
import SafeText
import Synchronization

/// What a player's program trusts of a host: its key against the known hosts, and where its
/// game was joined, remembered.
extension GuestREPL {
    /// The check that refuses a host whose proved key is not the one remembered for its name
    /// (`name` it was listed under, or the name it gives when joined by address) or for the
    /// name it will be shown under (``HostName/joined(listedAs:answering:)``), before anything
    /// of the game is shown; nil without known hosts.
    func keyCheck(listedAs name: String?, refused: RefusedName? = nil) -> Session.HostCheck? {
        guard let knownHosts else { return nil }
        return { host, proof in
            // The person behind the host: the owner that endorsed its key, else the key.
            guard let key = proof?.holder else { return nil }
            let listed = name ?? host.displayName
            for name in Set([listed, HostName.joined(listedAs: listed, answering: host.displayName)]).sorted()
            where knownHosts.status(ofHost: name, key: key) == .changed {
                refused?.value.withLock { $0 = name }
                return Self.changedKeyRefusal(TerminalText.sanitized(name), file: knownHosts.fileURL.path)
            }
            return nil
        }
    }

    /// Remembers the key `host` proved under `name` (a host met for the first time, or one
    /// whose new key the player accepted), and says so the first time.
    func rememberKey(of host: PeerID, listedAs name: String) {
        guard let knownHosts, let key = session.proof(of: host)?.holder else { return }
        let status = knownHosts.status(ofHost: name, key: key)
        guard status != .known else { return }
        do {
            try knownHosts.remember(name, key: key)
            if status == .unknown {
                console.print(text.style.dim("First game with \(TerminalText.sanitized(name)) here: its key is remembered in \(knownHosts.fileURL.path), and another key under that name will be questioned."))
            }
        } catch {
            console.print(error.message)
        }
    }

    /// What `--game NAME` says when the games listed under names like NAME are not exactly one
    /// called NAME.
    static func lookalikeRefusal(_ wanted: String, _ names: [String]) -> String {
        let listed = names.map { "“\(TerminalText.sanitized($0))”" }
        let which = names.count == 1
            ? "no game is called “\(TerminalText.sanitized(wanted))”, but \(listed[0]) looks like it"
            : "\(names.count) games have names that look like “\(TerminalText.sanitized(wanted))”: \(listed.joined(separator: ", "))"
        return "Not joined: \(which). A game under a name that looks like another's may be someone posing as it; pick the one you mean from the list (guessnum join), or join with its host's join code."
    }

    static func changedKeyQuestion(_ host: String) -> String {
        "“\(host)” now has another key than when you last played with it: someone else may be posing as it, or \(host) has a new computer. Join anyway and remember the new key? [y/N]"
    }

    static func changedKeyRefusal(_ host: String, file: String) -> String {
        "“\(host)” now has another key than when you last played with it: someone else may be posing as it. Not joined. If \(host) really has a new key (a new computer, a reinstall), remove its line from \(file) and join again."
    }

    /// Remembers where the game of `host` was joined, to try it there when discovery does not
    /// list it another time.
    func remember(_ host: PeerID, listedAs name: String, at endpoints: [Endpoint], isPrivate: Bool) {
        do {
            try rememberedGames?.remember(name, identity: host.identity, endpoints: endpoints, isPrivate: isPrivate)
        } catch {
            console.print(error.message)
        }
    }
}
