import GuessnumGame

extension PasswordProof.Cost {
    /// scrypt at N = 16, r = 1: the same derivation at a thousandth of the work, for tests that
    /// are not about its cost (the known-answer vectors keep the standard cost).
    static let cheap = PasswordProof.Cost(rounds: 16, blockSize: 1, parallelism: 1)
}
