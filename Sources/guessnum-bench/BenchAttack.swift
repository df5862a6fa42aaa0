import ArgumentParser

/// What a hostile client does to the host while honest guests play (`--attack`), as issue 13's
/// attacks were made: each runs in a process of its own, from 127.0.0.1.
enum BenchAttack: String, CaseIterable, Codable, ExpressibleByArgument, Sendable {
    /// One guest that never reads (it only sends heartbeats) while nine others chat at their
    /// allowed rate with long lines, so that what is broadcast to it would pile up in the host.
    case nonreader
    /// One guest sending 10,000 messages of an unknown type a second.
    case flood
    /// 99 guests from one address that join and sit, keeping their links alive.
    case seats
    /// Up to 1,000 connections that never say hello, reopened as the host closes them.
    case handshakes
}

/// What the attacker did, as its process reports it.
struct AttackReport: Codable, Sendable {
    var attack: BenchAttack
    /// Connections the attacker opened.
    var connections: Int
    /// Frames the attacker wrote.
    var framesSent: Int
    /// Connections the host closed on the attacker (a write or read found them gone).
    var closedByHost: Int

    enum CodingKeys: String, CodingKey {
        case attack, connections
        case framesSent = "frames_sent", closedByHost = "closed_by_host"
    }
}
