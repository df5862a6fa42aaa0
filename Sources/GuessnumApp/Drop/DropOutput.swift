import Multipeer

/// Where the file drop writes: whole lines, and a progress line that a terminal redraws in
/// place (elsewhere, such as in a pipe, only every quarter of the way is written, so a log
/// stays short).
public protocol DropOutput: Sendable {
    /// Writes one line.
    func line(_ text: String)
    /// Shows `text` as the progress of the transfer of `name`, which has come `fraction` of
    /// the way.
    func progress(of name: String, _ text: String, fraction: Double)
}

/// The service type under which receivers (`guessnum receive`) are announced and found
/// (`guessnum send`): its own, so the game list never shows them.
public enum DropService {
    public static let serviceType: ServiceType = {
        do { return try ServiceType("guessnum-drop") } catch { preconditionFailure("“guessnum-drop” is a valid service type: \(error)") }
    }()
}
