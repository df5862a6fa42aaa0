/// Small pieces of the sentences games and the program write.
public enum Wording {
    /// "1 guess", "3 guesses": `number` and its noun, `plural` when given, else `singular` + "s".
    public static func count(_ number: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(number) \(number == 1 ? singular : plural ?? singular + "s")"
    }
}
