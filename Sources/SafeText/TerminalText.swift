/// Making untrusted text safe to print on a terminal.
public enum TerminalText {
    /// The replacement for every character that could act on the terminal.
    public static let replacement: Unicode.Scalar = "\u{FFFD}"

    /// `s` with every control character (C0 including tab, newline and ESC; DEL; C1),
    /// bidirectional control (U+200E, U+202A…U+202E, U+2066…U+2069…) and line or paragraph
    /// separator (U+2028, U+2029) replaced by U+FFFD, so that text from the network cannot
    /// move the cursor, clear the screen, break a line or reorder what follows it.
    ///
    /// Newlines are replaced too: split multi-line text first if its lines are wanted.
    public static func sanitized(_ s: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in s.unicodeScalars {
            scalars.append(isUnsafe(scalar) ? replacement : scalar)
        }
        return String(scalars)
    }

    /// `s` sanitized and between curly quotes, for naming untrusted text in a sentence:
    /// “eve\u{FFFD}[2J”.
    public static func quoted(_ s: String) -> String {
        "“" + sanitized(s) + "”"
    }

    /// A name from the network (a file offered, say) between curly quotes, for a question put to
    /// a person: ``sanitized(_:)``, and also every invisible formatting character (zero-width
    /// spaces and joiners, the soft hyphen, the byte-order mark) and every double quotation
    /// mark replaced by U+FFFD, so that the name shows every character it has and cannot seem
    /// to end before it does (“a.pdf” (1 kB). Save…).
    public static func quotedName(_ s: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in s.unicodeScalars {
            let hidden = scalar.properties.generalCategory == .format || Self.quotationMarks.contains(scalar)
            scalars.append(hidden || isUnsafe(scalar) ? replacement : scalar)
        }
        return "“" + String(scalars) + "”"
    }

    /// Double quotation marks a name could end its quotes with early.
    private static let quotationMarks: Set<Unicode.Scalar> = ["\"", "“", "”", "„", "‟", "«", "»", "＂"]

    /// Whether `scalar` could act on a terminal (see ``sanitized(_:)``).
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator:
            return true
        default:
            return properties.isBidiControl
        }
    }
}
