import Logging

/// A swift-log backend that keeps every line in memory, for tests that check what a module
/// logs. It is passed in explicitly (``logger(label:)``), never bootstrapped, so tests running
/// side by side do not see each other's lines.
///
/// ```swift
/// let log = RecordingLogHandler.Store()
/// let session = Session(localPeer: alice, transport: transport, logger: log.logger(label: "multipeer.session"))
/// #expect(await log.first { $0.level == .notice } != nil)
/// ```
public struct RecordingLogHandler: LogHandler {
    /// One logged line.
    public struct Entry: Sendable, CustomStringConvertible {
        /// The logger's label.
        public let label: String
        /// The line's level.
        public let level: Logger.Level
        /// The line's message.
        public let message: String
        /// The handler's metadata merged with the line's.
        public let metadata: Logger.Metadata

        /// The value of metadata `key` as text, if present.
        public subscript(key: String) -> String? { metadata[key].map { "\($0)" } }

        public var description: String { "[\(level)] \(label): \(message) \(metadata)" }
    }

    /// The lines of every logger made from it, in the order they were logged; thread-safe.
    public final class Store: Sendable {
        private let entries = Locked<[Entry]>([])

        public init() {}

        /// A logger that records into this store, logging every level.
        public func logger(label: String) -> Logger {
            var logger = Logger(label: label) { label in RecordingLogHandler(label: label, store: self) }
            logger.logLevel = .trace
            return logger
        }

        /// Every line so far.
        public var all: [Entry] { entries.value }

        /// The lines at `level` or above.
        public func lines(atLeast level: Logger.Level) -> [Entry] { all.filter { $0.level >= level } }

        /// The first line matching `predicate`, waiting up to `timeout` for it.
        public func first(within timeout: Duration = .seconds(30), where predicate: (Entry) -> Bool) async -> Entry? {
            await firstMatch(in: { all }, within: timeout, where: predicate)
        }

        /// Waits until at least `count` lines match `predicate`; returns how many did.
        public func count(atLeast count: Int, within timeout: Duration = .seconds(30), where predicate: (Entry) -> Bool) async -> Int {
            await matchCount(in: { all }, atLeast: count, within: timeout, where: predicate)
        }

        fileprivate func append(_ entry: Entry) {
            entries.withLock { $0.append(entry) }
        }
    }

    /// The label of the logger this handler serves.
    public let label: String
    /// Where its lines go.
    public let store: Store
    public var logLevel: Logger.Level = .trace
    public var metadata: Logger.Metadata = [:]

    /// A handler for the logger labelled `label`, recording into `store`.
    public init(label: String, store: Store) {
        self.label = label
        self.store = store
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { $1 } }
        store.append(Entry(label: label, level: event.level, message: "\(event.message)", metadata: merged))
    }
}
