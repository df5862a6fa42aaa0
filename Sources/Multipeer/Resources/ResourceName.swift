/// The rule for a resource's name (see `docs/PROTOCOL.md` §3.9): a file name, never a path.
///
/// A ``StreamName`` (1 to 255 bytes of UTF-8 without control characters) that is also safe
/// as the last part of a path on any system: no `/` or `\`, not `.` or `..`, and not starting
/// with a dot, so a received file is never written outside the directory chosen for it, never
/// hidden, and prints as itself.
public enum ResourceName {
    /// What is wrong with `name`, completing "a resource name that …", or nil when it is valid.
    public static func problem(with name: String) -> String? {
        if let problem = StreamName.problem(with: name) { return problem }
        if name.contains("/") || name.contains("\\") { return "is a path (it contains a slash)" }
        if name.hasPrefix(".") { return "starts with a dot" }
        return nil
    }
}
