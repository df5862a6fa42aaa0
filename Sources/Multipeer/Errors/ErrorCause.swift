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



/// An error of this product: a ``code`` to switch on, one ``message`` for the person at the
/// keyboard, and the error it was made from, if any, for logs.
///
/// Conforming types get their description (the sentence), their debug description
/// (``ErrorCause/debugDescription(message:code:underlying:)``), and equality and hashing by code
/// and sentence: the cause never counts.
public protocol CodedError: ErrorWithCause, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The kinds of failure of this error type.
    associatedtype Code: RawRepresentable, Hashable where Code.RawValue == String
    /// What kind of failure this is.
    var code: Code { get }
    /// One sentence that says what went wrong and how to fix it.
    var message: String { get }
}

extension CodedError {
    public var description: String { message }

    /// The sentence, the code and the cause, if any: what a log shows.
    public var debugDescription: String {
        ErrorCause.debugDescription(message: message, code: code.rawValue, underlying: underlying)
    }

    /// Equal when the code and the sentence are; the cause does not count.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
    }
}
