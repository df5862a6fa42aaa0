import Foundation
import Multipeer

/// What `guessnum send` is given: the files and folders, and the receiver's address or join
/// code when the last of two or more arguments is one rather than a path on disk.
public struct SendArguments: Sendable {
    /// The files and folders to send, as typed.
    public let items: [String]
    /// The receiver the arguments name, if they name one.
    public let target: DropTarget?

    /// Reads and checks `arguments` with `--to` (`named`) and `--as` (`fileName`).
    /// - Throws: ``AppFailure`` (usage) with the sentence that says what is wrong.
    public init(_ arguments: [String], named: String? = nil, fileName: String? = nil) throws(AppFailure) {
        guard !arguments.isEmpty else { throw AppFailure("Name a file or folder to send.", .usage) }
        if arguments.count >= 2, let last = arguments.last, !FileManager.default.fileExists(atPath: last) {
            do throws(MultipeerError) {
                (items, target) = (Array(arguments.dropLast()), try Self.target(parsing: last))
            } catch {
                throw AppFailure("There is no file \(last), and as the receiver: \(error.message)", .usage, underlying: error)
            }
        } else {
            (items, target) = (arguments, nil)
        }
        if target != nil, named != nil { throw AppFailure("Give either an address or code, or --to, not both.", .usage) }
        for item in items where !FileManager.default.fileExists(atPath: item) { throw AppFailure("There is no file \(item).", .usage) }
        if let fileName {
            guard !isSet else { throw AppFailure("--as names the one file sent; it cannot name several files or a folder.", .usage) }
            if let problem = ResourceName.problem(with: fileName) { throw AppFailure(MultipeerError.invalidResourceName(fileName, problem).message, .usage) }
        }
    }

    /// Whether the items go as a set (several, or a folder) rather than as one file, as before sets.
    public var isSet: Bool {
        var isDirectory: ObjCBool = false
        return items.count > 1 || (FileManager.default.fileExists(atPath: items[0], isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    /// A receiver's join code (it starts with `gn1-`), else its `ADDR:PORT`.
    public static func target(parsing text: String) throws(MultipeerError) -> DropTarget {
        if text.lowercased().hasPrefix(JoinCode.prefix) { return .code(try JoinCode(parsing: text)) }
        return .address(try Endpoint(parsing: text))
    }
}
