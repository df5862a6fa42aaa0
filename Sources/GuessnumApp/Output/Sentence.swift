import SafeText

/// Sentences made of our words and someone else's.
enum Sentence {
    /// "`lead`: `reason`." — or "`lead`." without a reason — with exactly one period at the
    /// end, whether or not the reason (a host's sentence, made safe to print) ends with one.
    static func saying(_ lead: String, _ reason: String?) -> String {
        guard var reason = reason.map({ TerminalText.sanitized($0) }) else { return lead + "." }
        while reason.hasSuffix(".") || reason.hasSuffix(" ") { reason.removeLast() }
        return reason.isEmpty ? lead + "." : "\(lead): \(reason)."
    }
}
