import ArgumentParser

/// What the host command says about a game's own options: their help and their names.
enum GameOptionsHelp {
    /// The help of `Options`' options as ArgumentParser writes them, 80 columns wide ("" when the
    /// game has none of its own).
    static func options<Options: ParsableArguments>(of _: Options.Type) -> String {
        let help = Options.helpMessage(columns: 80)
        guard let start = help.range(of: "OPTIONS:\n") else { return "" }
        var lines = help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // ArgumentParser adds its help flag to every set of options; the host command has its own.
        if let flag = lines.firstIndex(where: { $0.contains("-h, --help") }) {
            lines.removeSubrange(flag..<(lines[(flag + 1)...].firstIndex { !$0.hasPrefix("        ") } ?? lines.endIndex))
        }
        while lines.last?.allSatisfy(\.isWhitespace) == true { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    /// The long names of `Options`' options (`--range`, `--secret`), read from their help;
    /// ArgumentParser's `--help`, which every set of options has, left out.
    static func names(of options: any ParsableArguments.Type) -> [String] {
        options.helpMessage(columns: 10_000).split(separator: "\n").flatMap { line -> [String] in
            let words = line.split(separator: " ")
            guard line.hasPrefix("  -"), let first = words.first, first.hasPrefix("-") else { return [] }
            // "-h, --help", "--name <name>": the names come first, then a value's placeholder.
            return words.prefix { $0.hasPrefix("-") }.map { String($0.trimmingSuffix(",")) }.filter { $0.hasPrefix("--") && $0 != "--help" }
        }
    }

    /// The option's name as typed, without a value given with `=`.
    static func name(of option: String) -> String {
        String(option.prefix { $0 != "=" })
    }
}

extension Substring {
    fileprivate func trimmingSuffix(_ suffix: String) -> Substring {
        hasSuffix(suffix) ? dropLast(suffix.count) : self
    }
}
