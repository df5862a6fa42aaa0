/// The confusables ``ConfusableSkeleton`` maps: a selection from the Unicode consortium's
/// `confusables.txt` (https://www.unicode.org/Public/security/latest/confusables.txt, the data
/// of Unicode Technical Standard #39), chosen for the scripts players type.
///
/// What it covers:
/// - Cyrillic and Greek letters that look like Latin letters, upper and lower case
///   (а е о р с у х ѕ і ј һ ԁ ԛ ԝ ӏ; А В Е К М Н О Р С Т Х У; α ο ρ ν ι υ; Α Β Ε Ζ Η Ι Κ Μ Ν Ο Ρ Τ Υ Χ…);
/// - Latin lookalikes: the digits 0 and 1, "|", dotless ı, "ɑ", "ɡ", "ℓ", and "m", which is
///   mapped to "rn" as in the standard. Capital I and small l are not made alike (the
///   standard maps I to l): names are compared without regard to case, so "ALICE" must stay
///   the same name as "alice", and uppercase lookalikes of I map to I instead;
/// - common symbols: dashes and minus signs, quotation marks and primes, the fraction and
///   division slashes, the one-dot leader.
///
/// Fullwidth forms, mathematical alphanumerics, ligatures and other compatibility characters
/// are not listed: the skeleton's compatibility decomposition (NFKD) maps them first. What the
/// table leaves out (Armenian, Cherokee, CJK lookalikes and the rest of the 6,000-odd entries)
/// is not detected.
enum ConfusableTable {
    static let prototypes: [Unicode.Scalar: String] = {
        var table: [Unicode.Scalar: String] = [:]
        let pairs: [(String, String)] = [
            // Cyrillic, lowercase.
            ("а", "a"), ("е", "e"), ("о", "o"), ("р", "p"), ("с", "c"), ("у", "y"), ("х", "x"),
            ("ѕ", "s"), ("і", "i"), ("ј", "j"), ("һ", "h"), ("ԁ", "d"), ("ԛ", "q"), ("ԝ", "w"),
            ("ӏ", "l"), ("ɩ", "i"), ("ү", "y"), ("ѡ", "w"), ("ъ", "b"), ("ь", "b"), ("ɡ", "g"),
            // Not from confusables.txt: a small capital T, which reads as "t" in a short name
            // ("rт" posing as "rt" was one of issue 24's impostors).
            ("т", "t"),
            // Cyrillic, uppercase.
            ("А", "A"), ("В", "B"), ("Е", "E"), ("К", "K"), ("М", "M"), ("Н", "H"), ("О", "O"),
            ("Р", "P"), ("С", "C"), ("Т", "T"), ("Х", "X"), ("У", "Y"), ("Ѕ", "S"), ("І", "I"),
            ("Ј", "J"), ("Ԛ", "Q"), ("Ԝ", "W"), ("Ү", "Y"), ("Ӏ", "I"), ("Ꙅ", "S"),
            // Greek, lowercase.
            ("α", "a"), ("ο", "o"), ("ρ", "p"), ("ν", "v"), ("ι", "i"), ("υ", "u"), ("γ", "y"),
            ("κ", "k"), ("σ", "o"), ("ϲ", "c"), ("ϳ", "j"),
            // Greek, uppercase.
            ("Α", "A"), ("Β", "B"), ("Ε", "E"), ("Ζ", "Z"), ("Η", "H"), ("Ι", "I"), ("Κ", "K"),
            ("Μ", "M"), ("Ν", "N"), ("Ο", "O"), ("Ρ", "P"), ("Τ", "T"), ("Υ", "Y"), ("Χ", "X"),
            ("Ϲ", "C"), ("Ϳ", "J"),
            // Latin and digits.
            ("0", "O"), ("1", "l"), ("|", "l"), ("ı", "i"), ("ɑ", "a"), ("ℓ", "l"),
            ("ǀ", "l"), ("m", "rn"), ("ꓲ", "l"),
            // Symbols.
            ("‐", "-"), ("‑", "-"), ("‒", "-"), ("–", "-"), ("—", "-"), ("―", "-"), ("−", "-"),
            ("˗", "-"), ("‘", "'"), ("’", "'"), ("ʹ", "'"), ("′", "'"), ("ʼ", "'"), ("`", "'"),
            ("“", "\""), ("”", "\""), ("″", "\""), ("∕", "/"), ("⁄", "/"), ("․", "."), ("‚", ","),
        ]
        for (lookalike, prototype) in pairs {
            table[lookalike.unicodeScalars.first!] = prototype
        }
        return table
    }()
}
