import Foundation
@testable import GuessnumApp
import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Synchronization
import Testing

/// Many small files without a round trip each: the sender keeps several files of a set in
/// flight (more to a receiver of this release, which holds those past its 16 at once), and the
/// drop box takes them all.
extension DropSetTests {
    @Test("The set's window: at most 4 files offered and still sending, at most 24 in all (those whose bytes all went wait only for their results), so small files do not wait a round trip each; 4 in all to a receiver of an earlier release")
    func setWindow() {
        var window = SetWindow(writingAtOnce: DropSender.setFilesWritingAtOnce, atOnce: DropSender.setFilesAtOnce)
        #expect(DropSender.setFilesWritingAtOnce == 4 && DropSender.setFilesAtOnce == 24 && DropSender.setFilesAtOnceEarlier == 4)
        var started = 0
        while window.hasRoom {
            window.started()
            started += 1
        }
        #expect(started == 4, "four send their bytes at once")
        for _ in 0..<100 {  // each file sends its bytes; the next starts meanwhile, none has its result yet
            guard window.running < 24 else { break }
            window.wroteAll()
            if window.hasRoom {
                window.started()
                started += 1
            }
        }
        #expect(started == 24 && window.running == 24 && !window.hasRoom, "24 under way while results are awaited")
        window.wroteAll()
        #expect(!window.hasRoom, "24 in all, whatever they wait for")
        window.ended()
        #expect(window.hasRoom)
        var earlier = SetWindow(writingAtOnce: DropSender.setFilesWritingAtOnce, atOnce: DropSender.setFilesAtOnceEarlier)
        for _ in 0..<4 { earlier.started(); earlier.wroteAll() }
        #expect(!earlier.hasRoom, "an earlier receiver: 4 in all, as before")
    }

    @Test("A set of 300 small files end to end: the box runs 16 at once and holds the files past them instead of declining any; every file is saved and checked")
    func manySmallFilesEndToEnd() async throws {
        let files = Dictionary(uniqueKeysWithValues: (1...300).map { ("many/\($0 % 7)/\($0).txt", String(repeating: "\($0) ", count: $0)) })
        let outbox = try Self.tree(files)
        let inbox = try ResourceScenarios.emptyDirectory()
        try await withBox(inbox: inbox, acceptAll: true) { sender, endpoint, said, box in
            let code = await sender.run(set: [outbox.appendingPathComponent("many")], to: .address(endpoint))
            #expect(code == 0, "\(said.all)")
            #expect(!said.all.contains { $0.contains("declined") }, "\(said.all)")
            #expect(said.all.contains { $0.hasPrefix("rita saved all 300 files") }, "\(said.all)")
            #expect(await eventually { box.all.contains { $0.hasPrefix("Saved all 300 files") } }, "\(box.all)")
        }
        #expect(try Self.contents(of: inbox).files == files)
    }
}

