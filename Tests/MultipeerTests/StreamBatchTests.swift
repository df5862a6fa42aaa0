import Foundation
import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Testing

/// A stream's batches follow the reader's window: a quarter of it, 64 KiB at the window
/// sessions start with, up to 256 KiB once it is 1 MiB or more; the link still holds two
/// batches at most (half that window), and a message still goes beside them.
@Suite("A stream's batches follow its window", .timeLimit(.minutes(1)))
struct StreamBatchTests {
    @Test("At a 1 MiB window, with the link writing nothing below, a 3 MB write hands it two batches of 16 chunks and stops; a message still goes; the rest follows, whole")
    func largerBatchesAtALargerWindow() async throws {
        var configuration = SessionConfiguration.notAboutTimeouts
        configuration.streamWindow = 1024 * 1024
        configuration.maximumStreamWindow = 1024 * 1024
        try await StreamPacingTests.twoBatchesHeld(configuration: configuration, bytes: 3_000_000, seed: 7, chunksPerBatch: 16)
    }
}
