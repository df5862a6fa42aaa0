import ArgumentParser
import GuessnumGame
import GuessnumStore
import Rooms

extension PlayableGame {
    /// Guess-the-number: its options (``GuessnumGame/GuessOptions``: `--range` and `--secret`);
    /// hosted as every game is, kept in its ``RoomStore`` (a game kept by an earlier release's
    /// store is taken in first).
    public static let guessTheNumber = room(
        GuessPresenter.self, options: GuessOptions.self, summary: ResumeQuestion.summary(of:),
        adopting: { store, name in try store.adoptLegacyGame(at: RoomStore<GuessRules>.legacyFileURL(forGame: name)) })

    /// A game on the room layer, shown by `presenter`, whose rules its `options` make (the
    /// game module's own options, such as ``RockPaperScissors/RPSOptions``); kept in a
    /// ``RoomStore`` for `--resume`, which `adopting` may first fill from the host's name (a game
    /// an earlier release kept elsewhere); an interrupted game is told in `summary`'s words.
    public static func room<Presenter: GamePresenter, Options: ParsableArguments & GameOptions>(
        _ presenter: Presenter.Type, options: Options.Type,
        summary: @escaping @Sendable (RoomSnapshot<Presenter.Rules>) -> String = ResumeQuestion.summary(of:),
        adopting: @escaping @Sendable (RoomStore<Presenter.Rules>, String) throws -> Void = { _, _ in }
    ) -> PlayableGame where Presenter.Rules: Codable, Options.Rules == Presenter.Rules {
        PlayableGame(
            kind: Presenter.Rules.kind, options: options,
            seat: { RoomSeat<Presenter>(repl: $0) },
            host: { given, setup in
                let store = try RoomStore<Presenter.Rules>(at: RoomStore<Presenter.Rules>.fileURL(forGame: setup.name))
                try adopting(store, setup.name)
                try await setup.serve(keptIn: store, summary: summary, presenter: presenter) { resuming in
                    let room = RoomHost(
                        session: setup.session, rules: try given.rules(), configuration: setup.room, password: setup.password, keptBy: store,
                        resuming: resuming)
                    return (room, nil)
                }
            })
    }
}
