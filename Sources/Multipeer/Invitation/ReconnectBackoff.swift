/// When to try again to reach a peer whose link dropped: the first try soon, later ones
/// further apart, each moved by a random amount so that many peers that lost one host at the
/// same moment (a host restarted, a switch rebooted) do not all come back in the same instant.
///
/// The first delay is drawn from ``firstTry`` (within a second by default). Each later delay is
/// the current step stretched by a random factor from 1 to ``spread``. The step is ``step``
/// while the delays so far add up to less than ``steadyFor`` — a restarted host is back within
/// seconds, and a try every 1 to 1.5 s finds it within 1.5 s of its listening again — and then
/// doubles up to ``maximumStep``. Never shorter than a second with the defaults, so the tries
/// average at most one a second however long it takes.
///
/// ```swift
/// var backoff = ReconnectBackoff()
/// while ContinuousClock.now < deadline {
///     try await Task.sleep(for: backoff.nextDelay())
///     if case .connected? = try? await session.invite(endpoint) { break }
/// }
/// ```
public struct ReconnectBackoff: Sendable {
    /// Where the first delay is drawn from.
    public var firstTry: ClosedRange<Duration> = .milliseconds(200) ... .seconds(1)
    /// The delay before the second try, before its random stretch.
    public var step: Duration = .seconds(1)
    /// How long the tries stay ``step`` apart before the steps grow (the delays handed out are
    /// added up).
    public var steadyFor: Duration = .seconds(30)
    /// The longest step, before its random stretch.
    public var maximumStep: Duration = .seconds(8)
    /// The most a step is stretched by: each delay is the step times a random factor from 1 to this.
    public var spread: Double = 1.5

    private var tries = 0
    private var currentStep: Duration?
    private var waited: Duration = .zero

    /// A schedule with the default delays.
    public init() {}

    /// How many delays have been handed out.
    public var attempts: Int { tries }

    /// The wait before the next try.
    public mutating func nextDelay() -> Duration {
        var generator = SystemRandomNumberGenerator()
        return nextDelay(using: &generator)
    }

    /// The wait before the next try, drawn with `generator` (a seeded one makes it repeatable).
    public mutating func nextDelay<Generator: RandomNumberGenerator>(using generator: inout Generator) -> Duration {
        let delay: Duration
        if tries == 0 {
            delay = Self.draw(from: firstTry, using: &generator)
        } else {
            let steady = min(step, maximumStep)
            let step = waited < steadyFor ? steady : min((currentStep ?? steady) * 2, maximumStep)
            currentStep = step
            delay = Self.draw(from: step ... step * max(1, spread), using: &generator)
        }
        tries += 1
        waited += delay
        return delay
    }

    private static func draw<Generator: RandomNumberGenerator>(from range: ClosedRange<Duration>, using generator: inout Generator) -> Duration {
        let low = range.lowerBound / .milliseconds(1)
        let high = range.upperBound / .milliseconds(1)
        guard high > low else { return range.lowerBound }
        return .milliseconds(Double.random(in: low ... high, using: &generator))
    }
}
