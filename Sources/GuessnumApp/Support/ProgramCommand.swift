import Foundation

/// How a person runs this program, written so that it works as printed: `guessnum` when that
/// name on `PATH` is this very program, otherwise the program's absolute path (after a
/// `swift build`, `guessnum` is not on `PATH` yet).
public enum ProgramCommand {
    /// The command for the running program, looked up in `environment`'s `PATH`.
    public static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let running = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        return command(for: running, path: environment["PATH"])
    }

    /// `guessnum` if the first `guessnum` on `path` is `executable`, else `executable` itself.
    static func command(for executable: String, path: String?) -> String {
        let name = URL(fileURLWithPath: executable).lastPathComponent
        for directory in (path ?? "").split(separator: ":") where !directory.isEmpty {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            guard FileManager.default.isExecutableFile(atPath: candidate.path) else { continue }
            return candidate.resolvingSymlinksInPath().path == executable ? name : executable
        }
        return executable
    }
}
