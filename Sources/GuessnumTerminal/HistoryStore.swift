import Foundation

/// Where a ``ReadlineConsole`` keeps the lines entered, between runs.
public struct HistoryStore: Sendable, Equatable {
    /// The history file. Its directory is created when the history is first saved.
    public let fileURL: URL

    /// The most lines kept in the file.
    public static let maximumLines = 1000

    public init(fileURL: URL) {
        self.fileURL = fileURL
    }

    /// The history file of `application` in the user's state directory, following the XDG
    /// base directory specification: `$XDG_STATE_HOME/application/history` when `XDG_STATE_HOME`
    /// is an absolute path, otherwise `$HOME/.local/state/application/history`.
    public static func standard(
        application: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> HistoryStore {
        let stateDirectory: URL
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            stateDirectory = URL(fileURLWithPath: state, isDirectory: true)
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            stateDirectory = URL(fileURLWithPath: home, isDirectory: true)
                .appendingPathComponent(".local", isDirectory: true)
                .appendingPathComponent("state", isDirectory: true)
        }
        return HistoryStore(
            fileURL: stateDirectory
                .appendingPathComponent(application, isDirectory: true)
                .appendingPathComponent("history", isDirectory: false)
        )
    }
}
