/// How errors that keep their cause describe themselves in logs, alike across the modules.
public enum ErrorCause {
    /// "SENTENCE [code] (caused by: CAUSE)": the sentence the user reads, the code to search
    /// for, and the cause chain (each cause's own `debugDescription` when it has one).
    public static func debugDescription(message: String, code: String, underlying: (any Error)?) -> String {
        guard let underlying else { return "\(message) [\(code)]" }
        return "\(message) [\(code)] (caused by: \(String(reflecting: underlying)))"
    }

    /// The innermost cause of `error`: its ``MultipeerError/underlying`` error's, and so on
    /// through errors that keep one; `error` itself when it keeps none.
    public static func root(of error: any Error) -> any Error {
        var current = error
        for _ in 0..<16 {
            guard let next = (current as? any ErrorWithCause)?.underlying else { break }
            current = next
        }
        return current
    }
}

/// An error that may keep the error it was made from.
public protocol ErrorWithCause: Error {
    /// The error this one was made from, if any.
    var underlying: (any Error)? { get }
}

extension MultipeerError: ErrorWithCause {}
