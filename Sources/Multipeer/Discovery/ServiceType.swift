/// The kind of service peers advertise and browse for, named by DNS-SD's rules.
///
/// 1 to 15 characters of lowercase ASCII letters, digits and hyphens, with at least one
/// letter, no hyphen at either end and no two hyphens in a row. The game uses `guessnum`,
/// which DNS-SD spells `_guessnum._tcp`.
public struct ServiceType: Hashable, Sendable, CustomStringConvertible {
    /// The bare name, such as `guessnum`.
    public let name: String

    /// Creates a service type, validating `name`.
    /// - Throws: ``MultipeerError/Code/invalidServiceType``.
    public init(_ name: String) throws(MultipeerError) {
        let scalars = Array(name.unicodeScalars)
        if scalars.isEmpty { throw .invalidServiceType(name, "is empty") }
        if scalars.count > 15 { throw .invalidServiceType(name, "is \(scalars.count) characters long") }
        for scalar in scalars where !(("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-") {
            throw .invalidServiceType(name, "contains “\(scalar)”")
        }
        if !scalars.contains(where: { ("a"..."z").contains($0) }) { throw .invalidServiceType(name, "has no letter") }
        if scalars.first == "-" || scalars.last == "-" { throw .invalidServiceType(name, "starts or ends with a hyphen") }
        if name.contains("--") { throw .invalidServiceType(name, "has two hyphens in a row") }
        self.name = name
    }

    /// The DNS-SD service type over TCP, such as `_guessnum._tcp`.
    public var dnsSDType: String { "_\(name)._tcp" }

    public var description: String { name }
}
