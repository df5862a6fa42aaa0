import EventBus
import Foundation
import GuessnumGame
import GuessnumTerminal
import Multipeer
import SafeText
import Synchronization

/// The list of games nearby, while it is open: discovery's browser, the games remembered from
/// before tried where they were joined, the games marked as not answering checked again while
/// the list is shown, and the timers set meanwhile. Each change is printed and posted to the
/// inbox as ``AppEvent/gamesChanged``; the player's side (``GuestREPL``) reads ``games`` and
/// joins from it.
final class Lobby: Sendable {
    /// The games listed, and what the list prints.
    let games: GameList
    private let session: Session
    private let discovery: any DiscoveryBackend
    private let console: any Console
    private let inbox: Inbox
    private let rememberedGames: RememberedGames?
    /// What runs while the list is open, and the timers set with ``wake(after:)``.
    private let state = Mutex(State())

    private struct State: Sendable {
        var open: Open?
        var timers: [Task<Void, Never>] = []
    }

    /// What keeps the list up to date while it is open.
    private struct Open: Sendable {
        let browser: Browser
        let watching: EventObservation
        let probing: Task<Void, Never>?
        /// Checks again, while the list is shown, the games it marks as not answering.
        let checking: Task<Void, Never>
    }

    /// A list, not yet open, of the games `discovery` finds and `rememberedGames` remembers,
    /// printed to `console` in `style`, marked "played before" by `knownHosts`.
    init(
        session: Session, discovery: any DiscoveryBackend, console: any Console, inbox: Inbox, style: TextStyle, knownHosts: KnownHosts?,
        rememberedGames: RememberedGames?
    ) {
        (self.session, self.discovery, self.console, self.inbox, self.rememberedGames) = (session, discovery, console, inbox, rememberedGames)
        games = GameList(style: style, knownHosts: knownHosts)
    }

    /// Whether the list is open.
    var isOpen: Bool { state.withLock { $0.open != nil } }

    /// Opens the list (once): discovery, and the games remembered from before.
    func open() async {
        guard !isOpen else { return }
        let browser = Browser(serviceType: GameAdvertisement.serviceType, localPeer: session.localPeer, discovery: discovery)
        let watching = observe(browser)
        do { try await browser.start() } catch { games.apply(.failed(error)) }  // the list's header says so
        let open = Open(browser: browser, watching: watching, probing: probeRememberedGames(), checking: recheckSilentGames())
        state.withLock { $0.open = open }
        console.setPrompt("join> ")
    }

    /// Posts ``AppEvent/timer`` after `delay`, by a timer kept until the list closes.
    func wake(after delay: Duration) {
        let timer = inbox.wake(after: delay)
        state.withLock { $0.timers.append(timer) }
    }

    /// Closes the list, if open, and cancels the timers set for it.
    func close() async {
        let (open, timers) = state.withLock { state in
            defer { (state.open, state.timers) = (nil, []) }
            return (state.open, state.timers)
        }
        for timer in timers { timer.cancel() }
        guard let open else { return }
        open.watching.cancel()  // stops quietly: no "0 found" on the way out
        open.probing?.cancel()
        open.checking.cancel()
        await open.browser.stop()
    }

    /// Prints what changes in the list, and posts ``AppEvent/gamesChanged``.
    private func observe(_ browser: Browser) -> EventObservation {
        let (console, games, inbox) = (console, games, inbox)
        return browser.events.observe(.browserEvent) { event in
            // A failure shows once, as the list's header, until games can be found again.
            games.apply(event)
            if let changes = games.changeLines() { console.print(changes) }
            inbox.post(.gamesChanged)
        }
    }

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
    private func probeRememberedGames() -> Task<Void, Never>? {
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

    /// What the list says under itself when it is first printed.
    static let hint = "Type the number of a game to join it, or press Enter to see the list again; /help for more."

    /// How often games marked as not answering are checked again while the list is shown.
    static let recheckInterval: Duration = .seconds(3)
    /// How many silent games are checked at once.
    static let recheckWidth = 4

    /// While the list is shown, checks the games marked as not answering every
    /// ``recheckInterval`` (a connection that sends nothing, ``Multipeer/Session/probe(_:timeout:)``,
    /// a few at a time) and clears the mark of those that answer, so "not answering" says what
    /// was measured last, not what a join found a minute ago.
    private func recheckSilentGames() -> Task<Void, Never> {
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
