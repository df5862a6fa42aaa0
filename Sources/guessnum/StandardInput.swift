import Foundation

/// Lines of standard input as an asynchronous sequence. One thread blocks on the input, so
/// no other thread ever waits on the terminal.
enum StandardInput {
    static func lines() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingOldest(256))
        let reader = Thread {
            while let line = readLine(strippingNewline: true) {
                continuation.yield(line)
            }
            continuation.finish()
        }
        reader.name = "guessnum.stdin"
        reader.start()
        return stream
    }
}
