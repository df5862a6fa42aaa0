import Foundation

/// The user's base directories, as the XDG base directory specification defines them: the
/// variable when it holds an absolute path, otherwise its default under `HOME`.
public enum XDGDirectory {
    /// `$XDG_CONFIG_HOME`, else `~/.config`: settings and keys.
    public static func config(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        directory("XDG_CONFIG_HOME", default: ".config", environment: environment)
    }

    /// `$XDG_DATA_HOME`, else `~/.local/share`: data the user keeps, such as known hosts.
    public static func data(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        directory("XDG_DATA_HOME", default: ".local/share", environment: environment)
    }

    /// `$XDG_STATE_HOME`, else `~/.local/state`: state worth keeping between runs, such as a
    /// host's game in progress.
    public static func state(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        directory("XDG_STATE_HOME", default: ".local/state", environment: environment)
    }

    private static func directory(_ variable: String, default relative: String, environment: [String: String]) -> URL {
        if let path = environment[variable], path.hasPrefix("/") {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(relative, isDirectory: true)
    }
}
