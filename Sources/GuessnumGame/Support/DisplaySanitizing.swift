import SafeText

extension String {
    /// The text made safe to print (see ``TerminalText/sanitized(_:)``): text from the network
    /// cannot move the cursor, clear the screen, break a line or reorder what follows it.
    var sanitizedForDisplay: String { TerminalText.sanitized(self) }
}
