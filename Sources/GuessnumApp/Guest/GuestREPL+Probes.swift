import EventBus
import Foundation
import GuessnumGame
import GuessnumTerminal
import Multipeer
import SafeText
import Synchronization

/// The games found without discovery: remembered ones tried where they were joined, and those
/// marked as not answering checked again while the list is shown.
extension GuestREPL {
    /// How long discovery has to list the games nearby before remembered games it did not list
    /// are tried where they were joined (at once when discovery is unavailable).
    static let rememberedDelay: Duration = .seconds(2)
    /// How long a remembered game's host has to answer.
    static let probeTimeout: Duration = .seconds(3)

    /// Tries the remembered games that discovery does not list, each at its remembered
    /// addresses, and lists those whose host answers there with its key (see
    /// ``Multipeer/Session/probe(_:timeout:)``); nil when nothing is remembered.
    ///
    /// So a game is found where it was wherever discovery cannot list it: no avahi-daemon, Wi-Fi
    /// that filters multicast — and a game its host hid (`/visible off`), which is not
    /// announced but not closed either: a probe cannot tell these apart, and the host is told
    /// that players who joined before still find it.
    func probeRememberedGames() -> Task<Void, Never>? {
        guard let rememberedGames else { return nil }
        let (remembered, problem) = rememberedGames.read()
        if let problem { console.print(problem) }
        let listings = remembered.compactMap(\.listing)
        guard !listings.isEmpty else { return nil }
        let (session, games, console, inbox) = (session, games, console, inbox)
        return Task {
            let start = ContinuousClock.now
            while ContinuousClock.now - start < Self.rememberedDelay, games.problem == nil, !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))
            }
            let listed = games.listedIdentities
            await withTaskGroup(of: Void.self) { group in
                for game in listings where !listed.contains(game.peer.identity) && !Task.isCancelled {
                    group.addTask {
                        guard (try? await session.probe(game, timeout: Self.probeTimeout)) != nil else { return }
                        if games.addRemembered(game), let changes = games.changeLines() { console.print(changes) }
                        inbox.post(.gamesChanged)
                    }
                }
            }
        }
    }

    /// What the list says under the whole list when it is first printed.
    static let lobbyHint = "Type the number of a game to join it, or press Enter to see the list again; /help for more."

    /// How often games marked as not answering are checked again while the list is shown.
    static let recheckInterval: Duration = .seconds(3)
    /// How many silent games are checked at once.
    static let recheckWidth = 4

    /// While the list is shown, checks the games marked as not answering every
    /// ``recheckInterval`` (a connection that sends nothing, ``Multipeer/Session/probe(_:timeout:)``,
    /// a few at a time) and clears the mark of those that answer, so "not answering" says what
    /// was measured last, not what a join found a minute ago.
    func recheckSilentGames() -> Task<Void, Never> {
        let (session, games, console) = (session, games, console)
        return Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.recheckInterval)
                guard games.isShowing, !Task.isCancelled else { continue }
                let silent = games.silentGames
                for start in stride(from: 0, to: silent.count, by: Self.recheckWidth) {
                    await withTaskGroup(of: Void.self) { group in
                        for game in silent[start..<min(start + Self.recheckWidth, silent.count)] {
                            group.addTask {
                                let began = ContinuousClock.now
                                let answered = (try? await session.probe(game, timeout: Self.probeTimeout)) != nil
                                // Cancelled (the list closed): the probe ended unanswered, which measures nothing.
                                guard !Task.isCancelled else { return }
                                if answered {
                                    games.answered(game.peer, checkedAt: began)
                                } else {
                                    games.markSilent(game.peer)
                                }
                            }
                        }
                    }
                }
                if let changes = games.changeLines() { console.print(changes) }
            }
        }
    }
}
