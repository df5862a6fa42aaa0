import GuessnumGame
import GuessnumStore
import Rooms

extension PlayableGame {
    /// Guess-the-number: `--range` and `--secret`; its room made by its game master, which keeps
    /// it in its store; shown by its presenter as every game is.
    public static let guessTheNumber = PlayableGame(
        kind: GameProtocol.kind, settings: [.range, .secret], check: { _ in },
        seat: { RoomSeat<GuessPresenter>(repl: $0) },
        host: { setup, settings in
            var configuration = GameConfiguration(range: settings.range ?? .standard, secretSource: settings.secret.map { .fixed($0) } ?? .secureRandom)
            configuration.room = setup.room
            configuration.password = setup.password
            let store = try GameStore(at: GameStore.fileURL(forGame: setup.name))
            try await setup.serve(keptIn: store, summary: ResumeQuestion.summary(of:), presenter: GuessPresenter.self) { resuming in
                let master = try await GameMaster(
                    session: setup.session, configuration: configuration, resuming: resuming, journal: store, showsActivity: true)
                if resuming == nil { try store.start(master.record, host: master.host) }
                return (master.room, master)  // the master keeps the room going, and its store's journal
            }
        })

    /// A game on the room layer, shown by `presenter`, reading `settings`, whose rules
    /// `rules` makes from the settings (throwing the sentence for a value it refuses); kept in
    /// a ``RoomStore`` for `--resume`.
    public static func room<Presenter: GamePresenter>(
        _ presenter: Presenter.Type, settings: Set<HostSetting> = [],
        rules: @escaping @Sendable (GameSettings) throws -> Presenter.Rules
    ) -> PlayableGame where Presenter.Rules: Codable {
        PlayableGame(
            kind: Presenter.Rules.kind, settings: settings,
            check: { given throws(AppFailure) in
                do { _ = try rules(given) } catch { throw AppFailure(String(describing: error), .usage, underlying: error) }
            },
            seat: { RoomSeat<Presenter>(repl: $0) },
            host: { setup, given in
                let store = try RoomStore<Presenter.Rules>(at: RoomStore<Presenter.Rules>.fileURL(forGame: setup.name))
                try await setup.serve(keptIn: store, summary: ResumeQuestion.summary(of:), presenter: presenter) { resuming in
                    let room = RoomHost(
                        session: setup.session, rules: try rules(given), configuration: setup.room, password: setup.password, keptBy: store,
                        resuming: resuming)
                    return (room, nil)
                }
            })
    }
}
