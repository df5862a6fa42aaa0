import Foundation
import Testing

/// Rules the test suite keeps about itself, checked on its own sources so they cannot slip.
@Suite("The test suite's own rules", .timeLimit(.minutes(1)))
struct TestSuiteRulesTests {
    /// The package's Tests folder.
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    @Test("Every suite with tests has a time limit, so a hang fails one test instead of the whole run")
    func everySuiteHasATimeLimit() throws {
        let sources = try Self.swiftFiles().map { ($0.path.replacingOccurrences(of: Self.testsFolder.path + "/", with: ""), try String(contentsOf: $0, encoding: .utf8)) }
        let declarations = sources.flatMap { path, text in TopLevelDeclaration.all(in: text).map { (path, $0) } }
        #expect(declarations.contains { $0.1.containsTests }, "no tests found under \(Self.testsFolder.path)")
        let limitedTypes = Set(declarations.filter { $0.1.kind == .type && $0.1.hasTimeLimit }.map(\.1.name))
        let unlimited = declarations.filter { _, declaration in
            guard declaration.containsTests else { return false }
            switch declaration.kind {
            case .type, .function: return !declaration.hasTimeLimit
            case .extension: return !limitedTypes.contains(declaration.name)
            }
        }.map { "\($0.0): \($0.1.name)" }
        #expect(unlimited == [], "these suites have no .timeLimit")
    }

    @Test("The rule's reader sees a suite's attribute over several lines, extensions, a suite without a limit, helpers and a free test")
    func readerOfDeclarations() {
        let text = """
            @Suite(
                "limited",
                .timeLimit(.minutes(1)))
            struct Limited {
                @Test func one() {}
            }

            extension Limited {
                @Test func two() {}
            }

            @Suite("unlimited")
            struct Unlimited {
                @Test func three() {}
            }

            struct Helper {}

            func helper() {}

            @Test func free() {}
            """
        let found = TopLevelDeclaration.all(in: text)
        #expect(found.map(\.name) == ["Limited", "Limited", "Unlimited", "Helper", "helper", "free"])
        #expect(found.map(\.hasTimeLimit) == [true, false, false, false, false, false])
        #expect(found.map(\.containsTests) == [true, true, true, false, false, true])
        #expect(found.map(\.kind) == [.type, .extension, .type, .type, .function, .function])
    }

    static func swiftFiles() throws -> [URL] {
        let enumerator = FileManager.default.enumerator(at: testsFolder, includingPropertiesForKeys: nil)
        return (enumerator?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "swift" }
    }
}

/// A declaration at the top level of a test file (it starts in the first column): a type, an
/// extension, or a free test function, with the attributes written just above it.
struct TopLevelDeclaration {
    enum Kind { case type, `extension`, function }

    var kind: Kind
    var name: String
    var attributes: String
    var body: String

    /// Whether it is a test, or holds tests: a line of its own starts with `@Test`.
    var containsTests: Bool {
        let test = /^\s*@Test\b/
        return (kind == .function ? attributes : body).split(separator: "\n").contains { (try? test.prefixMatch(in: $0)) != nil }
    }
    var hasTimeLimit: Bool { attributes.contains(".timeLimit(") }

    static func all(in text: String) -> [TopLevelDeclaration] {
        let lines = text.components(separatedBy: "\n")
        let header = /^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|internal|private|fileprivate|final)\s+)*(struct|class|enum|actor|extension|func)\s+([A-Za-z_][A-Za-z0-9_]*)/
        let starts = lines.indices.filter { (try? header.prefixMatch(in: lines[$0])) != nil }
        return starts.enumerated().map { position, start in
            let match = try! header.prefixMatch(in: lines[start])!
            let end = position + 1 < starts.count ? starts[position + 1] : lines.count
            // The attributes: the declaration's own line and those just above it, up to a blank
            // line, a comment or the end of the previous declaration (one may run over several lines).
            var first = start
            while first > 0, !lines[first - 1].trimmingCharacters(in: .whitespaces).isEmpty,
                  !lines[first - 1].hasPrefix("///"), !lines[first - 1].hasPrefix("}") {
                first -= 1
            }
            let kind: Kind = switch match.1 {
            case "extension": .extension
            case "func": .function
            default: .type
            }
            return TopLevelDeclaration(
                kind: kind, name: String(match.2), attributes: lines[first...start].joined(separator: "\n"),
                body: lines[start..<end].joined(separator: "\n"))
        }
    }
}
