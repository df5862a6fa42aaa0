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

    @Test("To a receiver that takes files being put in place past its 16 receiving (the set's answer says how many): 16 small files offered and still sending, at most 128 in all; a large file among them keeps the 4; an answer without it keeps the window before")
    func setWindowPlacing() {
        let set = UUID()
        var window = DropSender.setWindow(answer: DropSetAnswer(set: set, accepted: true, reason: nil, placing: 96), digestAfterBytes: true)
        #expect(window.atOnce == 96 && DropSender.setFilesAtOncePlacing == 128)
        var started = 0
        while window.hasRoom(forBytes: 64 * 1024) {
            window.started(bytes: 64 * 1024)
            started += 1
        }
        #expect(started == 16, "sixteen small files send their bytes at once")
        window.wroteAll(bytes: 64 * 1024)
        #expect(!window.hasRoom(forBytes: 1024 * 1024), "a large file waits while more than 4 send")
        #expect(window.hasRoom(forBytes: 1024))
        for _ in 0..<1000 {  // each file sends its bytes; the next starts meanwhile, none has its result yet
            guard window.hasRoom(forBytes: 1024) else { break }
            window.started(bytes: 1024)
            window.wroteAll(bytes: 1024)
        }
        #expect(window.running == 96 && !window.hasRoom(forBytes: 0), "96 under way in all, whatever they wait for")
        window.ended()
        #expect(window.hasRoom(forBytes: 1024))
        var large = DropSender.setWindow(answer: DropSetAnswer(set: set, accepted: true, reason: nil, placing: 96), digestAfterBytes: true)
        large.started(bytes: 1024 * 1024)
        for _ in 0..<3 { large.started(bytes: 1024) }
        #expect(!large.hasRoom(forBytes: 1024), "a large file sending: 4 at most, as before")
        large.wroteAll(bytes: 1024 * 1024)
        #expect(large.hasRoom(forBytes: 1024))
        let many = DropSender.setWindow(answer: DropSetAnswer(set: set, accepted: true, reason: nil, placing: 100_000), digestAfterBytes: true)
        #expect(many.atOnce == 128, "never more than 128, whatever the receiver says")
        let before = DropSender.setWindow(answer: DropSetAnswer(set: set, accepted: true, reason: nil), digestAfterBytes: true)
        #expect(before.atOnce == 24 && before.smallWritingAtOnce == 4)
        #expect(DropSender.setWindow(answer: DropSetAnswer(set: set, accepted: true, reason: nil), digestAfterBytes: false).atOnce == 4)
    }

    @Test("The box's answer to an accepted set says how many files it takes while they are put in place (96); an answer without it decodes as before")
    func answerSaysPlacing() async throws {
        let inbox = try ResourceScenarios.emptyDirectory()
        try await withBox(inbox: inbox, acceptAll: true) { sender, endpoint, _, _ in
            let session = sender.session
            guard case .connected(let rita)? = try? await session.invite(endpoint) else {
                Issue.record("not connected")
                return
            }
            let answers = EventLog(session.events, .dataReceived)
            try session.send(DropSetOffer(set: UUID(), files: 1, bytes: 1, folders: 1, looseFiles: 0), to: [rita])
            #expect(await eventually { answers.all.contains { (try? $0.decode(DropSetAnswer.self))?.placing == DropSetReceipt.filesPlacing } })
        }
        #expect(DropSetReceipt.filesPlacing == 96)
        let earlier = try JSONDecoder().decode(DropSetAnswer.self, from: Data(#"{"set":"\#(UUID().uuidString)","accepted":true}"#.utf8))
        #expect(earlier.placing == nil && earlier.accepted)
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

