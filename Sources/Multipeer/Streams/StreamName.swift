/// The rule for a byte stream's name (see `docs/PROTOCOL.md` §3.8): 1 to 255 bytes of UTF-8,
/// without control characters (General Category `Cc`) or bidirectional controls, so that a
/// name can be printed next to other text without changing it.
public enum StreamName {
    /// The most UTF-8 bytes a stream name may have.
    public static let maximumBytes = 255

    /// What is wrong with `name`, completing "a stream name that …", or nil when it is valid.
    public static func problem(with name: String) -> String? {
        let count = name.utf8.count
        if count == 0 { return "is empty" }
        if count > maximumBytes { return "is \(count) bytes long (limit \(maximumBytes))" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.isBidiControl }) {
            return "contains control characters"
        }
        return nil
    }
}
