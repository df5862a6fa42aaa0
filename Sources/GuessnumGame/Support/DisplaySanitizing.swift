extension String {
    /// The text with every control character, bidirectional control and line or paragraph
    /// separator replaced by "?", so that text from the network cannot move the cursor, clear
    /// the screen, break a line or reorder what is printed after it.
    var sanitizedForDisplay: String {
        var scalars = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            let properties = scalar.properties
            switch properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator:
                scalars.append("?")
            default:
                scalars.append(properties.isBidiControl ? "?" : scalar)
            }
        }
        return String(scalars)
    }
}
