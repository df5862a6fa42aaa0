import Logging

extension Logger.Metadata {
    /// The metadata of a game log line about `peer` (a display name), with an error `code`
    /// (a `GameError.Code` or `MultipeerError.Code` raw value) when there is one.
    package static func game(peer: String, code: String? = nil) -> Logger.Metadata {
        var metadata: Logger.Metadata = ["peer": .string(peer)]
        if let code { metadata["code"] = .string(code) }
        return metadata
    }
}
