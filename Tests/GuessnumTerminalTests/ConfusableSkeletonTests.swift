import SafeText
import Testing

@Suite("Confusable skeletons: names that look alike are alike", .timeLimit(.minutes(1)))
struct ConfusableSkeletonTests {
    @Test("Lookalikes from other scripts, fullwidth and mathematical forms, case and spacing share a skeleton", arguments: [
        ("\u{0430}lice", "alice"),              // Cyrillic а
        ("\u{0410}LICE", "alice"),              // Cyrillic А, upper case
        ("\u{0412}\u{041E}\u{0412}", "bob"),    // Cyrillic ВОВ
        ("\u{03BF}scar", "oscar"),              // Greek ο
        ("\u{039A}ATE", "kate"),                // Greek Κ
        ("ＡＬＩＣＥ", "alice"),                   // fullwidth
        ("𝐚𝐥𝐢𝐜𝐞", "alice"),                      // mathematical bold
        ("rnallory", "mallory"),                // rn for m
        ("b0b", "bob"),                         // zero for o
        ("a1ice", "alice"),                     // one for l
        ("ALICE", "alice"),
        ("  alice   bob ", "alice bob"),
        ("zo\u{00EB}", "zoe\u{0308}"),          // composed and decomposed ë
        ("al\u{2011}ice", "al-ice"),            // non-breaking hyphen
    ])
    func alike(_ a: String, _ b: String) {
        #expect(ConfusableSkeleton.areConfusable(a, b), "\(ConfusableSkeleton.of(a)) vs \(ConfusableSkeleton.of(b))")
    }

    @Test("Names people can tell apart keep different skeletons", arguments: [
        ("alice", "alíce"), ("bob", "bobby"), ("вов", "bob"), ("alice", "alice2"), ("anna", "аnnа (2)"), ("al ice", "alice"),
    ])
    func different(_ a: String, _ b: String) {
        #expect(!ConfusableSkeleton.areConfusable(a, b), "both are \(ConfusableSkeleton.of(a))")
    }
}
