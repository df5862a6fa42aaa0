import Foundation
import Multipeer
import MultipeerTestSupport
import MultipeerTesting
import Testing

/// Resources sent inside a folder (feature bit 3, `folders`): the path rule, reused from the
/// single name's; folders made under the receiver's directory without following a link; and
/// what a peer without the bit is sent (nothing of it) or may send (a violation).
@Suite("Resources in folders", .timeLimit(.minutes(1)))
struct ResourcePathTests {
    @Test("A path is valid when every part is a valid resource name: absolute paths, '..', hidden parts, empty parts, backslashes, too many parts or bytes are refused, each said", arguments: [
        ("photos/2024/beach.jpg", nil),
        ("a.txt", nil),
        ("caf\u{E9}/cafe\u{301}.txt", nil),
        ("../x", "has a part “..” that starts with a dot"),
        ("a/../../x", "has a part “..” that starts with a dot"),
        ("/etc/passwd", "has an empty part (a leading, doubled or trailing slash)"),
        ("a//b", "has an empty part (a leading, doubled or trailing slash)"),
        ("a/", "has an empty part (a leading, doubled or trailing slash)"),
        ("a/.ssh/id", "has a part “.ssh” that starts with a dot"),
        ("a\\..\\b/c", "has a part “a\\..\\b” that is a path (it contains a slash)"),
        ("a/bell\u{7}", "has a part “bell\u{7}” that contains control characters"),
        (Array(repeating: "d", count: 65).joined(separator: "/"), "has 65 parts (limit 64)"),
        (Array(repeating: String(repeating: "x", count: 200), count: 21).joined(separator: "/"), "is 4220 bytes long (limit 4096)"),
    ] as [(String, String?)])
    func pathRule(path: String, problem: String?) {
        #expect(ResourcePath.problem(with: path) == problem)
    }

    @Test("A file sent under a path lands in that path's folders under the receiver's directory, made 0700, the file 0600; names that differ only by case or normalization are two files, neither over the other")
    func savedUnderItsPath() async throws {
        try await withTwoPeers { peers async throws in
            let scenarios = ResourceScenarios(host: peers.host, guest: peers.guest)
            try await peers.connect()
            let inbox = try ResourceScenarios.emptyDirectory()
            let paths = ["photos/2024/beach.jpg", "photos/caf\u{E9}.txt", "photos/cafe\u{301}.txt", "photos/Notes.txt", "photos/notes.txt"]
            for (index, path) in paths.enumerated() {
                let source = try ResourceScenarios.file(named: "source.bin", Data("file \(index)".utf8))
                let sending = try peers.guest.sendResource(at: source, path: path, to: peers.host.localPeer)
                // Found by its bytes: Swift's String equality takes the two café names for one.
                let offer = try #require(await scenarios.offers.first { Array($0.name.utf8) == Array(path.utf8) })
                #expect(offer.isInFolder)
                let saved = try await offer.accept(into: inbox).outcome()
                try await sending.outcome()
                #expect(Array(saved.path.utf8) == Array((inbox.path + "/" + path).utf8), "saved as \(saved.path)")
                #expect(try Data(contentsOf: saved) == Data("file \(index)".utf8))
                #expect(try FileManager.default.attributesOfItem(atPath: saved.path)[.posixPermissions] as? Int == 0o600)
            }
            for folder in ["photos", "photos/2024"] {
                #expect(try FileManager.default.attributesOfItem(atPath: inbox.appendingPathComponent(folder).path)[.posixPermissions] as? Int == 0o700)
            }
            #expect(ResourceScenarios.names(in: inbox.appendingPathComponent("photos")).count == 5)
        }
    }

    @Test("A folder of the path that is a link in the receiver's directory, or a file there, is never followed or replaced: the offer is declined with the reason, nothing is written where the link points")
    func linkOnTheWay() async throws {
        try await withTwoPeers { peers async throws in
            let scenarios = ResourceScenarios(host: peers.host, guest: peers.guest)
            try await peers.connect()
            let inbox = try ResourceScenarios.emptyDirectory()
            let elsewhere = try ResourceScenarios.emptyDirectory("elsewhere")
            try FileManager.default.createDirectory(at: inbox.appendingPathComponent("photos"), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: inbox.appendingPathComponent("photos/2024").path, withDestinationPath: elsewhere.path)
            try Data("mine".utf8).write(to: inbox.appendingPathComponent("docs"))
            for path in ["photos/2024/beach.jpg", "docs/a.txt"] {
                let source = try ResourceScenarios.file(named: "source.bin", Data("x".utf8))
                let sending = try peers.guest.sendResource(at: source, path: path, to: peers.host.localPeer)
                let offer = try await scenarios.offer(named: path)
                await #expect(throws: MultipeerError.self) { _ = try await offer.accept(into: inbox) }
                do throws(MultipeerError) {
                    try await sending.outcome()
                    Issue.record("\(path) was saved")
                } catch {
                    let folder = path.hasPrefix("docs") ? "“docs”" : "“photos/2024”"
                    #expect(error.message == "\(peers.host.localPeer.displayName) declined “\(path)”: \(folder) in \(inbox.path) is a symbolic link or a file, not a folder (links are not followed).")
                }
            }
            #expect(ResourceScenarios.names(in: elsewhere).isEmpty)
            #expect(ResourceScenarios.names(in: inbox.appendingPathComponent("photos")) == ["2024"], "no partial file is left")
            #expect(try Data(contentsOf: inbox.appendingPathComponent("docs")) == Data("mine".utf8))
        }
    }

    @Test("To a peer of an earlier release (no folders bit) a path is never sent: sendResource(at:path:) says so and nothing goes; a single file still does")
    func earlierPeer() async throws {
        var configuration = SessionConfiguration.notAboutTimeouts
        configuration.features = WireProtocol.Feature.streams | WireProtocol.Feature.resources | WireProtocol.Feature.resume
        try await withTwoPeers(configuration: configuration) { peers async throws in
            let scenarios = ResourceScenarios(host: peers.host, guest: peers.guest)
            try await peers.connect()
            #expect(!peers.guest.supports(WireProtocol.Feature.folders, with: peers.host.localPeer))
            #expect(peers.guest.supports(WireProtocol.Feature.resources, with: peers.host.localPeer))
            let source = try ResourceScenarios.file(named: "a.txt", Data("x".utf8))
            do {
                _ = try peers.guest.sendResource(at: source, path: "photos/a.txt", to: peers.host.localPeer)
                Issue.record("a path was offered to an earlier peer")
            } catch let error as MultipeerError {
                #expect(error.code == .unsupportedProtocolVersion)
                #expect(error.message.contains("takes one file at a time, not folders or several files at once"), "\(error.message)")
            }
            let sending = try peers.guest.sendResource(at: source, to: peers.host.localPeer)
            let saved = try await scenarios.offer(named: "a.txt").accept(into: try ResourceScenarios.emptyDirectory()).outcome()
            try await sending.outcome()
            #expect(saved.lastPathComponent == "a.txt")
        }
    }

    @Test("A RESOURCE_OFFER whose name is a path, on a link without the folders bit, is a protocol violation; the offer is never posted")
    func pathWithoutFeature() async throws {
        var configuration = SessionConfiguration()
        configuration.peerTimeout = .seconds(300)
        try await withTwoPeers(configuration: configuration) { peers async throws in
            let offers = EventLog(peers.host.events, .resourceOffered)
            let (raw, mallory) = try await peers.rawGuest(features: WireProtocol.Feature.streams | WireProtocol.Feature.resources | WireProtocol.Feature.resume)
            raw.send(.resourceOffer(.init(streamID: 1, transfer: Array(repeating: 1, count: 16), size: 3, digest: Array(repeating: 0, count: 32), name: "photos/a.jpg")))
            #expect(await eventually { raw.isClosed })
            #expect(raw.receivedFrames.last == .goodbye(reason: "protocol violation"))
            let lost = await peers.hostStates.first { $0.peer == mallory && $0.state == .notConnected }
            guard case .lost(let error) = lost?.reason else {
                Issue.record("expected a lost peer, got \(String(describing: lost))")
                return
            }
            #expect(error.code == .protocolViolation)
            #expect(error.message.contains("a resource path on a link without folders"), "\(error.message)")
            #expect(offers.all.isEmpty)
        }
    }

    @Test("A path encodes and decodes as the name of a RESOURCE_OFFER; a path out of the directory is malformed")
    func codec() throws {
        let offer = Frame.resourceOffer(.init(streamID: 3, transfer: Array(repeating: 9, count: 16), size: 5, digest: Array(repeating: 1, count: 32), name: "a/b/c.txt"))
        var decoder = FrameDecoder()
        decoder.append(FrameCodec.encode(offer).bytes)
        #expect(try decoder.nextFrame() == offer)
        let hostile = Frame.resourceOffer(.init(streamID: 3, transfer: Array(repeating: 9, count: 16), size: 5, digest: Array(repeating: 1, count: 32), name: "a/../../c"))
        var refusing = FrameDecoder()
        refusing.append(FrameCodec.encode(hostile).bytes)
        #expect(throws: MultipeerError.self) { try refusing.nextFrame() }
    }
}
