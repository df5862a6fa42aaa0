import Foundation

/// Where the D-Bus system bus listens, as `DBUS_SYSTEM_BUS_ADDRESS` gives it
/// (`unix:path=/run/dbus/system_bus_socket`), or the standard socket when it is unset.
public enum SystemBusAddress: Sendable, Equatable, CustomStringConvertible {
    /// A Unix socket at a path.
    case path(String)
    /// A Unix socket in the abstract namespace (`unix:abstract=…`).
    case abstract(String)
    /// An address this check cannot try (TCP, launchd…), as given.
    case other(String)

    /// The socket the system bus uses when nothing else is said.
    public static let standardSocket = "/run/dbus/system_bus_socket"

    /// The address `environment` gives, or the standard socket. Of several addresses
    /// (separated by `;`) the first Unix one counts; values are unescaped (`%2f` is `/`).
    public init(environment: [String: String]) {
        guard let given = environment["DBUS_SYSTEM_BUS_ADDRESS"]?.trimmingCharacters(in: .whitespaces), !given.isEmpty else {
            self = .path(Self.standardSocket)
            return
        }
        for entry in given.split(separator: ";") {
            guard let colon = entry.firstIndex(of: ":"), entry[..<colon] == "unix" else { continue }
            for pair in entry[entry.index(after: colon)...].split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, let value = Self.unescaped(parts[1]), !value.isEmpty else { continue }
                if parts[0] == "path" { self = .path(value); return }
                if parts[0] == "abstract" { self = .abstract(value); return }
            }
        }
        self = .other(given)
    }

    public var description: String {
        switch self {
        case .path(let path): path
        case .abstract(let name): "@" + name
        case .other(let address): address
        }
    }

    /// D-Bus escapes bytes as `%XX`; nil for a malformed escape.
    static func unescaped(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = iterator.next(), let low = iterator.next(),
                let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            else { return nil }
            bytes.append(value)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
