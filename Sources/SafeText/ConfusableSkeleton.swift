import Foundation

/// The skeleton of a name (after Unicode Technical Standard #39, "Unicode Security
/// Mechanisms", §4 Confusable Detection): two names with the same skeleton look alike, so a
/// program that wants names people can tell apart compares skeletons, not strings.
///
/// The skeleton of `s` is computed in five steps:
/// 1. compatibility decomposition (NFKD), which turns fullwidth forms ("ａｌｉｃｅ"),
///    mathematical letters ("𝐚𝐥𝐢𝐜𝐞"), ligatures and superscripts into plain letters;
/// 2. every character in ``ConfusableTable`` replaced by the Latin or ASCII prototype it looks
///    like (Cyrillic "а" → "a", Greek "Ο" → "O", "1" → "l", "m" → "rn"…);
/// 3. lowercasing, so that names differing only in case collide;
/// 4. step 2 again (uppercase lookalikes such as Cyrillic "В" only look like Latin before
///    lowercasing: "В" → "B" → "b", while lowercase "в" stays itself);
/// 5. default-ignorable code points removed, runs of whitespace folded into one space and the
///    ends trimmed, then canonical composition (NFC).
///
/// ```swift
/// ConfusableSkeleton.of("аlice") == ConfusableSkeleton.of("Alice")   // true: Cyrillic а
/// ConfusableSkeleton.of("alice") == ConfusableSkeleton.of("alíce")   // false: í is visibly accented
/// ```
public enum ConfusableSkeleton {
    /// The skeleton of `s`: equal skeletons mean the two texts look alike.
    public static func of(_ s: String) -> String {
        let decomposed = s.decomposedStringWithCompatibilityMapping
        let mapped = mapConfusables(mapConfusables(decomposed).lowercased())
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in mapped.unicodeScalars {
            let properties = scalar.properties
            if properties.isDefaultIgnorableCodePoint { continue }
            if properties.isWhitespace {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace { result.append(" ") }
            pendingSpace = false
            result.append(scalar)
        }
        return String(result).precomposedStringWithCanonicalMapping
    }

    /// Whether `a` and `b` look alike.
    public static func areConfusable(_ a: String, _ b: String) -> Bool {
        of(a) == of(b)
    }

    private static func mapConfusables(_ s: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in s.unicodeScalars {
            if let prototype = ConfusableTable.prototypes[scalar] {
                result.append(contentsOf: prototype.unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}
