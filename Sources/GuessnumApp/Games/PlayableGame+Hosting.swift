import ArgumentParser
import GuessnumGame
import GuessnumStore
import Rooms

extension PlayableGame {
    /// Guess-the-number: its options (``GuessnumGame/GuessOptions``: `--range` and `--secret`);
    /// its room made by its game master, which keeps it in its store; shown by its presenter as
    /// every game is.
    public static let guessTheNumber = PlayableGame(
        kind: GameProtocol.kind, options: GuessOptions.self,
        seat: { RoomSeat<GuessPresenter>(repl: $0) },
        host: { options, setup in
            var configuration = options.configuration
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

    /// A game on the room layer, shown by `presenter`, whose rules its `options` make (the
    /// game module's own options, such as ``RockPaperScissors/RPSOptions``); kept in a
    /// ``RoomStore`` for `--resume`.
    public static func room<Presenter: GamePresenter, Options: ParsableArguments & GameOptions>(
        _ presenter: Presenter.Type, options: Options.Type
    ) -> PlayableGame where Presenter.Rules: Codable, Options.Rules == Presenter.Rules {
        PlayableGame(
            kind: Presenter.Rules.kind, options: options,
            seat: { RoomSeat<Presenter>(repl: $0) },
            host: { given, setup in
                let store = try RoomStore<Presenter.Rules>(at: RoomStore<Presenter.Rules>.fileURL(forGame: setup.name))
                try await setup.serve(keptIn: store, summary: ResumeQuestion.summary(of:), presenter: presenter) { resuming in
                    let room = RoomHost(
                        session: setup.session, rules: try given.rules(), configuration: setup.room, password: setup.password, keptBy: store,
                        resuming: resuming)
                    return (room, nil)
                }
            })
    }
}
