import Foundation
import MultipeerTestSupport
import Testing

/// The test harness's own reader of a child's output (`guessnum` writes its usage errors one
/// byte at a time, through ArgumentParser, so reads can end inside a character).
@Suite("Reading a child's output", .timeLimit(.minutes(1)))
struct ChildProcessTests {
    @Test("A character whose bytes arrive in separate reads is read whole")
    func splitCharacter() async throws {
        let child = try ChildProcess(
            URL(fileURLWithPath: "/bin/sh"), ["-c", #"printf '\342'; sleep 0.2; printf '\200'; sleep 0.2; printf '\234x\n'"#])
        #expect(await child.exitStatus() == 0)
        #expect(await child.completeLine(containing: "x") == "“x")
    }
}
