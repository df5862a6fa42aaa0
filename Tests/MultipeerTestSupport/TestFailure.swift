/// An error a test helper throws when what it set up did not happen (say, a guest that could
/// not join), so the test stops there with a sentence instead of running on.
public struct TestFailure: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
