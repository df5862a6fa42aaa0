import Foundation
import Multipeer

extension ResumeStore {
    /// A store of records in `directory` on the system's disk (``POSIXResourceFiles``).
    /// - Parameter maximumAge: how long a record is kept after it was last written (24 hours).
    public convenience init(directory: URL, maximumAge: Duration = .seconds(24 * 3600)) {
        self.init(directory: directory, files: POSIXResourceFiles(), maximumAge: maximumAge)
    }

    /// The file drop's store: `$XDG_STATE_HOME/APPLICATION/partials` (`~/.local/state/…`), on
    /// the system's disk.
    public static func standard(application: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> ResumeStore {
        ResumeStore(directory: XDGDirectory.state(environment: environment).appendingPathComponent(application).appendingPathComponent("partials"))
    }
}
