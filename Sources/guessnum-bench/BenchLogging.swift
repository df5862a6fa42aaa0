import Logging

/// The benchmark's diagnostics: warnings and worse on standard error, so that nothing the
/// library logs mixes with the results (or with the workers' reports) on standard output.
enum BenchLogging {
    /// Call first in each process of the benchmark.
    static func bootstrap() {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .warning
            return handler
        }
    }
}
