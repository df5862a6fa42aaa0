/// Prompts as readline needs them.
enum ReadlinePrompt {
    /// `prompt` with each ANSI escape sequence between readline's "ignore" markers
    /// (`\u{1}` … `\u{2}`), so that readline does not count it in the prompt's width. A prompt
    /// that already contains markers is returned unchanged.
    static func marked(_ prompt: String) -> String {
        guard !prompt.unicodeScalars.contains("\u{1}") else { return prompt }
        var result = String.UnicodeScalarView()
        var scalars = prompt.unicodeScalars[...]
        while let scalar = scalars.first {
            guard scalar == "\u{1B}" else {
                result.append(scalar)
                scalars.removeFirst()
                continue
            }
            let length = escapeLength(scalars)
            result.append("\u{1}")
            result.append(contentsOf: scalars.prefix(length))
            result.append("\u{2}")
            scalars.removeFirst(length)
        }
        return String(result)
    }

    /// The length of the escape sequence at the start of `scalars` (which starts with ESC):
    /// a CSI sequence (ESC [ parameters final-byte) or ESC and one character.
    private static func escapeLength(_ scalars: Substring.UnicodeScalarView) -> Int {
        var index = scalars.index(after: scalars.startIndex)
        guard index < scalars.endIndex else { return 1 }
        guard scalars[index] == "[" else { return 2 }
        index = scalars.index(after: index)
        var length = 2
        while index < scalars.endIndex {
            length += 1
            if (0x40...0x7E).contains(scalars[index].value) { break }
            index = scalars.index(after: index)
        }
        return length
    }
}
