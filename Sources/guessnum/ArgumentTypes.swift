import ArgumentParser
import GuessnumGame
import Logging
import Multipeer

// The library's values as command-line arguments. ArgumentParser reports a value it cannot
// read as a usage error (exit 64); options use the throwing `parse` as their transform, so
// that the library's own sentence says what is wrong with the value.

extension GuessRange: ExpressibleByArgument {
    public init?(argument: String) {
        guard let range = try? GuessRange(parsing: argument) else { return nil }
        self = range
    }

    /// `--range`'s reader: the range, or the sentence that says what is wrong.
    static func parse(_ text: String) throws -> GuessRange { try GuessRange(parsing: text) }
}

extension Endpoint: ExpressibleByArgument {
    public init?(argument: String) {
        guard let endpoint = try? Endpoint(parsing: argument) else { return nil }
        self = endpoint
    }

    /// `ADDR:PORT`'s reader: the endpoint, or the sentence that says what is wrong.
    static func parse(_ text: String) throws -> Endpoint { try Endpoint(parsing: text) }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
