import Foundation
import GuessnumResources
import Multipeer
import MultipeerTestSupport
import Testing

/// The `guessnum` program as a user meets it: real processes, real exit codes, one sentence
/// per error and no stack dumps.
@Suite("The guessnum command line", .timeLimit(.minutes(3)))
struct CommandLineTests {
    /// No D-Bus here: discovery must fail with its sentence, never by touching a real network.
    static let noBus = ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/guessnum-test-bus"]

    /// A person's environment with no D-Bus.
    static func person() -> [String: String] { personEnvironment().merging(noBus) { $1 } }

    /// `guessnum ARGUMENTS` as `environment`'s person (a new one by default).
    func guessnum(_ arguments: [String], environment: [String: String] = person()) throws -> ChildProcess {
        try ChildProcess(try guessnumExecutable(), arguments, environment: environment)
    }

    /// The port a host process announces in its banner ("… directly: PROGRAM join ADDR:PORT").
    func listeningPort(of host: ChildProcess) async throws -> Int {
        let banner = try #require(await host.line(containing: "directly: "), "host: \(host.text)")
        return try #require(banner.split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) }, "banner: \(banner)")
    }

    func run(_ arguments: [String]) async throws -> (status: Int32?, output: String) {
        let process = try guessnum(arguments)
        process.closeInput()
        let status = await process.exitStatus(within: .seconds(30))
        return (status, process.text)
    }

    @Test("Bad input on the command line gets its sentence and exit code 64 (EX_USAGE)", arguments: [
        (["join", "nonsense"], "is not an address"),
        (["join", "127.0.0.1:99999"], "is not an address"),
        (["join", "999.1.1.1:1"], "is not an address"),
        (["join", "--name", "", "127.0.0.1:7777"], "display name"),
        (["join", "--name", "al\u{200B}ice", "127.0.0.1:7777"], "invisible or formatting character (U+200B)"),
        (["join", "--name", "[host] alice", "127.0.0.1:7777"], "which marks chat lines on screen"),
        (["host", "--name", String(repeating: "x", count: 64)], "64 bytes long"),
        (["host", "--range", "100-1"], "range"),
        (["host", "--range", "banana"], "range"),
        (["host", "--max-players", "0"], "--max-players"),
        (["send", "/nonexistent/guessnum-file"], "There is no file /nonexistent/guessnum-file."),
        (["send", "/", "127.0.0.1:7777"], "There is no file to send in what was named"),
        (["send", "/etc/hostname", "/etc/hosts", "--as", "x", "127.0.0.1:7777"], "--as names the one file sent"),
        (["send", "/etc/hostname", "--as", "../passwd", "127.0.0.1:7777"], "The file name “../passwd” is a path"),
        (["send", "/etc/hostname", "nonsense"], "is not an address"),
        (["receive", "/nonexistent/guessnum-inbox"], "/nonexistent/guessnum-inbox is not a directory"),
        (["join", "--timeout", "-1"], "--timeout must be at least 1 second."),
        (["host", "--game", "tictactoe", "--turn-time", "-5"], "--turn-time must be from 0 to 3600 seconds."),
        (["host", "--game", "tictactoe", "--best-of", "3"], "--best-of is for rock-paper-scissors (--game rps), not tic-tac-toe."),
        (["host", "--game", "rps", "--range", "1-10"], "--range is for guess-the-number (--game guessnum), not rock-paper-scissors."),
        (["host", "--turn-time", "5"], "--turn-time is for tic-tac-toe, rock-paper-scissors or Snap (--game tictactoe, rps or snap), not guess-the-number."),
        (["host", "--game", "rps", "--best-of", "4"], "A match cannot be the best of 4 throws; choose an odd number from 1 to 9, such as 3."),
        (["host", "--game", "chess"], "--game"),
        (["hots"], "Unknown command 'hots'. Did you mean 'host'?"),
        (["recieve"], "Unknown command 'recieve'. Did you mean 'receive'?"),
    ])
    func badInput(arguments: [String], sentence: String) async throws {
        let (status, output) = try await run(arguments)
        #expect(status == 64)
        #expect(output.contains(sentence), "output: \(output)")
        #expect(!output.contains("MultipeerError("), "errors reach the user as sentences, not dumps")
    }

    @Test("A file sent to an address where nothing listens: the sentence and exit code 1")
    func sendUnreachable() async throws {
        let (status, output) = try await run(["send", "/etc/hostname", "127.0.0.1:1"])
        #expect(status == 1)
        #expect(output.contains("Could not connect to 127.0.0.1:1: connection refused."), "output: \(output)")
    }

    @Test("An unreachable host is a runtime failure with exit code 1")
    func unreachable() async throws {
        let (status, output) = try await run(["join", "127.0.0.1:1"])
        #expect(status == 1)
        #expect(output.contains("Could not connect to 127.0.0.1:1: connection refused."), "output: \(output)")
    }

    @Test("A game name nobody hosts is looked for until the timeout, then explained with exit code 3")
    func unknownGame() async throws {
        let (status, output) = try await run(["join", "--game", "nobody-hosts-this", "--timeout", "2"])
        #expect(status == 3)
        #expect(output.contains("No game called “nobody-hosts-this” was found within 2 s: games cannot be found while discovery is unavailable."), "output: \(output)")
        #expect(output.contains("avahi-daemon"), "the missing daemon is explained: \(output)")
        #expect(output.components(separatedBy: "Games nearby can't be found").count == 2, "the notice once: \(output)")
    }

    @Test("Without avahi-daemon the list says once, in a player's words, that games can't be found and that a join code or address still works")
    func listWithoutDiscovery() async throws {
        let (status, output) = try await run(["join", "--name", "bob"])
        #expect(status == 0, "the end of input quits the list: \(output)")
        #expect(output.components(separatedBy: "Games nearby can't be found").count == 2, "the notice once: \(output)")
        #expect(output.contains("you can still join a game by the join code or the address (HOST:PORT) its host printed"), "output: \(output)")
        #expect(!output.contains("peers"), "output: \(output)")
    }

    @Test("A DNS server without its zone, a server that is not an address, or a key file that is not a key: a usage error (exit 64) with a sentence")
    func siteZoneUsage() async throws {
        let (noZone, noZoneOutput) = try await run(["join", "--dns-server", "10.0.0.53", "--timeout", "1"])
        #expect(noZone == 64)
        #expect(noZoneOutput.contains("The DNS server 10.0.0.53 is given without its zone: give the zone too (--dns-domain"), "output: \(noZoneOutput)")
        let (badServer, badServerOutput) = try await run(["join", "--dns-domain", "games.example.org", "--dns-server", "ns:one:two", "--timeout", "1"])
        #expect(badServer == 64, "output: \(badServerOutput)")
        #expect(badServerOutput.contains("--dns-server:"), "output: \(badServerOutput)")
        let junk = Scratch.path("junk", suffix: ".key")
        try "not a key".write(to: junk, atomically: true, encoding: .utf8)
        let (badKey, badKeyOutput) = try await run(["host", "--name", "kay", "--dns-domain", "games.example.org", "--dns-server", "127.0.0.1", "--dns-key", junk.path])
        #expect(badKey == 64, "output: \(badKeyOutput)")
        #expect(badKeyOutput.contains("The DNS key file \(junk.path): A TSIG key is written hmac-sha256:NAME:SECRET"), "output: \(badKeyOutput)")
    }

    @Test("The site's files in ~/.config/guessnum: a key others can read, or a line that is not a setting, is a usage error (exit 64) with a sentence")
    func siteFilesUsage() async throws {
        let person = Self.person()
        let directory = URL(fileURLWithPath: try #require(person["XDG_CONFIG_HOME"])).appendingPathComponent("guessnum")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let key = directory.appendingPathComponent("site-dns.key")
        try "hmac-sha256:guessnum-hosts.:\(Data(repeating: 1, count: 32).base64EncodedString())".write(to: key, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: key.path)
        let open = try guessnum(["host", "--name", "kay"], environment: person)
        open.closeInput()
        #expect(await open.exitStatus(within: .seconds(30)) == 64, "output: \(open.text)")
        #expect(open.text.contains("The site's DNS key \(key.path) can be read by other users of this machine: make it yours alone (chmod 600 \(key.path))."), "output: \(open.text)")

        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key.path)
        try "domain games.example.org\nsevrer 10.0.0.53  # a typo\n".write(to: directory.appendingPathComponent("site-dns.conf"), atomically: true, encoding: .utf8)
        let typo = try guessnum(["join", "--timeout", "1"], environment: person)
        typo.closeInput()
        #expect(await typo.exitStatus(within: .seconds(30)) == 64, "output: \(typo.text)")
        #expect(typo.text.contains("site-dns.conf, line 2: “sevrer 10.0.0.53” is not a setting; the file takes `domain NAME`, `server ADDRESS` and `ttl SECONDS`."), "output: \(typo.text)")
    }

    @Test("--resume with nothing to resume says so in one sentence, and starts a new game")
    func resumeWithNothingToResume() async throws {
        let host = try guessnum(["host", "--name", "alice", "--secret", "7", "--resume"])
        defer { host.signal(SIGKILL) }
        _ = try await listeningPort(of: host)
        #expect(host.text.contains("Nothing to resume: no game under this name was interrupted; starting a new game.\n"), "host: \(host.text)")
    }

    @Test("A host without avahi-daemon says so and keeps serving players who join by address")
    func hostWithoutDiscovery() async throws {
        let host = try guessnum(["host", "--name", "alice", "--secret", "7"])
        defer { host.signal(SIGKILL) }
        let port = try await listeningPort(of: host)
        #expect(host.text.contains("avahi-daemon cannot be reached"))
        let player = try guessnum(["join", "--name", "bob", "127.0.0.1:\(port)"])
        defer { player.signal(SIGKILL) }
        player.send(line: String(repeating: "x", count: 100_000))
        #expect(await player.line(containing: "characters long, above the limit of") != nil, "a huge line gets a sentence: \(player.text)")
        player.send(line: String(repeating: "a" + String(repeating: "\u{0301}", count: 30), count: 500))
        #expect(await player.line(containing: "bytes, above the limit of 2000 bytes") != nil, "500 characters of stacked marks are refused by their bytes: \(player.text)")
        player.send(line: "\u{1B}[31mred\u{07} text")
        #expect(await host.line(containing: "[chat] bob: \u{FFFD}[31mred\u{FFFD} text") != nil, "control characters are shown, not obeyed: \(host.text)")
        let lookalike = try guessnum(["join", "--name", "\u{0430}lice", "127.0.0.1:\(port)"])   // Cyrillic а
        defer { lookalike.signal(SIGKILL) }
        #expect(await lookalike.line(containing: "Welcome, \u{0430}lice (2)!") != nil, "a lookalike of the host's name is numbered: \(lookalike.text)")
        lookalike.send(line: "Round 2 starts")
        #expect(await player.line(containing: "[chat] \u{0430}lice (2): Round 2 starts") != nil, "and its chat is marked: \(player.text)")
        lookalike.closeInput()
        player.send(line: "7")
        #expect(await player.line(containing: "you guessed 7: correct! You win round 1.") != nil, "player: \(player.text)")
        player.closeInput()
        #expect(await player.exitStatus() == 0)
        host.signal(SIGTERM)
        #expect(await host.exitStatus() == 0, "a signal ends the host cleanly: \(host.text)")
    }

    @Test("--ask asks the host about each player; a yes lets them in, a no is explained to the player, and that address is not asked about again for a minute")
    func askingHost() async throws {
        let environment = Self.person()
        let host = try guessnum(["host", "--name", "alice", "--ask"], environment: environment)
        defer { host.signal(SIGKILL) }
        let port = try await listeningPort(of: host)
        let welcome = try guessnum(["join", "--name", "bob", "127.0.0.1:\(port)"], environment: environment)
        defer { welcome.signal(SIGKILL) }
        #expect(await host.line(containing: "bob wants to join") != nil, "host: \(host.text)")
        host.send(line: "maybe")
        #expect(await host.line(containing: "Please answer y or n.") != nil)
        host.send(line: "y")
        #expect(await welcome.line(containing: "Welcome, bob!") != nil, "bob: \(welcome.text)")

        let turnedAway = try guessnum(["join", "--name", "mallory", "127.0.0.1:\(port)"], environment: environment)
        defer { turnedAway.signal(SIGKILL) }
        #expect(await host.line(containing: "mallory wants to join") != nil, "host: \(host.text)")
        host.send(line: "n")
        #expect(await turnedAway.exitStatus() == 3)
        #expect(turnedAway.text.contains("The host at 127.0.0.1:\(port) turned you away: the host said no."), "mallory: \(turnedAway.text)")
        let again = try guessnum(["join", "--name", "mallory2", "127.0.0.1:\(port)"], environment: environment)
        defer { again.signal(SIGKILL) }
        #expect(await again.exitStatus() == 3)
        #expect(again.text.contains("the host said no to a player from your network address less than a minute ago"), "mallory2: \(again.text)")
        #expect(!host.text.contains("mallory2 wants to join"), "host: \(host.text)")
    }

    @Test("--json prints every event as one JSON object a line")
    func jsonLines() async throws {
        let environment = Self.person()
        let host = try guessnum(["host", "--name", "alice", "--secret", "3", "--json"], environment: environment)
        defer { host.signal(SIGKILL) }
        let port = try await listeningPort(of: host)
        let player = try guessnum(["join", "--name", "bob", "--json", "127.0.0.1:\(port)"], environment: environment)
        defer { player.signal(SIGKILL) }
        player.send(line: "3")
        #expect(await player.line(containing: "\"event\":\"roundWon\"") != nil, "player: \(player.text)")
        player.closeInput()
        #expect(await player.exitStatus() == 0)
        let objects = player.text.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(!objects.isEmpty && objects.allSatisfy { $0?["event"] is String }, "every line is a JSON event: \(player.text)")
        let verdict = objects.compactMap { $0 }.first { $0["event"] as? String == "verdict" }
        #expect(((verdict?["data"] as? [String: Any])?["guess"] as? Int) == 3)
        #expect(host.text.split(separator: "\n").allSatisfy { $0.hasPrefix("{\"event\":") }, "host: \(host.text)")
    }

    @Test("Three players from one account (one HOME) are three players: none replaces another")
    func threePlayersFromOneAccount() async throws {
        let host = try guessnum(["host", "--name", "alice", "--secret", "7"])
        defer { host.signal(SIGKILL) }
        let port = try await listeningPort(of: host)
        let account = Self.person()
        var players: [ChildProcess] = []
        defer { for player in players { player.signal(SIGKILL) } }
        for count in 1...3 {
            let player = try guessnum(["join", "--name", "bob", "127.0.0.1:\(port)"], environment: account)
            players.append(player)
            #expect(await player.line(containing: "Welcome, bob") != nil, "player \(count): \(player.text)")
            #expect(await host.line(containing: "(\(count) playing)") != nil, "host: \(host.text)")
        }
        for (index, player) in players.enumerated() {
            player.send(line: "\(index + 1)")
        }
        #expect(await host.line(containing: "guessed 3: too low") != nil, "host: \(host.text)")
        #expect(await eventually { host.text.components(separatedBy: "guessed").count - 1 >= 3 }, "every player's guess is answered: \(host.text)")
        #expect(!host.text.contains("left"), "nobody was replaced: \(host.text)")
        for player in players {
            #expect(!player.text.contains("The host left"), "\(player.text)")
        }
        for player in players { player.closeInput() }
        for player in players { #expect(await player.exitStatus() == 0) }
        #expect(await host.line(containing: "(0 playing)") != nil, "host: \(host.text)")
        // Once they have quit, the same account joins again (the identity slots are free again).
        let again = try guessnum(["join", "--name", "bob", "127.0.0.1:\(port)"], environment: account)
        players.append(again)
        #expect(await again.line(containing: "Welcome, bob!") != nil, "the first identity is free again: \(again.text)")
    }

    @Test("--log-level debug logs a malformed frame with the peer's address on standard error; the default level logs nothing in a game")
    func diagnosticsAreLogged() async throws {
        let environment = Self.person()
        let host = try guessnum(["host", "--name", "alice", "--secret", "7", "--log-level", "debug"], environment: environment)
        defer { host.signal(SIGKILL) }
        let port = try await listeningPort(of: host)
        #expect(await host.line(containing: "guessnum: debug: Listening") != nil, "debug lines are shown: \(host.text)")

        let socket = try await TLSRawSocket.connect(port: port)
        socket.write(Array(repeating: 0xFF, count: 64))  // inside TLS: a frame far too long
        let logged = await host.line(containing: "guessnum: notice:")
        #expect(logged?.contains("peer=127.0.0.1:") == true, "the malformed frame is logged with its peer: \(host.text)")
        #expect(logged?.contains("code=") == true, "and its code: \(String(describing: logged))")
        socket.close()

        let quiet = try guessnum(["host", "--name", "carol", "--secret", "3"])
        defer { quiet.signal(SIGKILL) }
        let quietPort = try await listeningPort(of: quiet)
        let player = try guessnum(["join", "--name", "dave", "127.0.0.1:\(quietPort)"])
        defer { player.signal(SIGKILL) }
        player.send(line: "hello")
        player.send(line: "3")
        #expect(await player.line(containing: "Round 1: the reveal matches the commitment") != nil, "player: \(player.text)")
        player.closeInput()
        #expect(await player.exitStatus() == 0)
        #expect(await quiet.line(containing: "dave left") != nil)
        for output in [quiet.text, player.text] {
            #expect(!output.contains("guessnum: "), "no log line at the default level in a normal game: \(output)")
        }
    }

    @Test("Without --port a host listens where its last game did, or anywhere when that port is taken; --port 0 is any port")
    func portOfTheLastGame() async throws {
        let environment = Self.person()
        let first = try guessnum(["host", "--name", "alice"], environment: environment)
        let port = try await listeningPort(of: first)
        first.signal(SIGTERM)
        #expect(await first.exitStatus() == 0)
        let again = try guessnum(["host", "--name", "alice"], environment: environment)
        #expect(try await listeningPort(of: again) == port, "host: \(again.text)")
        // While it runs, another game of the same account cannot have the port: it takes another.
        let second = try guessnum(["host", "--name", "alice2"], environment: environment)
        defer { second.signal(SIGKILL) }
        let other = try await listeningPort(of: second)
        #expect(other != port && second.text.contains("Hosting alice2's game"), "host: \(second.text)")
        again.signal(SIGTERM)
        #expect(await again.exitStatus() == 0)
        second.signal(SIGTERM)
        #expect(await second.exitStatus() == 0)
        let anyPort = try guessnum(["host", "--name", "alice", "--port", "0"], environment: environment)
        defer { anyPort.signal(SIGKILL) }
        #expect(try await listeningPort(of: anyPort) != other, "--port 0 does not look at the last game's port")
    }

    @Test("--version and --help answer and exit 0")
    func versionAndHelp() async throws {
        let version = try await run(["--version"])
        #expect(version.status == 0)
        #expect(version.output.contains("0.1.0"))
        let help = try await run(["--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("host") && help.output.contains("join"))
        let hostHelp = try await run(["host", "--help"])
        #expect(hostHelp.output.contains("(default: 1-100)"), "the range's default is given: \(hostHelp.output)")
        let portHelp = hostHelp.output.components(separatedBy: "--port <port>").last?.components(separatedBy: "--ask").first ?? ""
        #expect(portHelp.components(separatedBy: "default").count - 1 == 1, "one default for --port: \(portHelp)")
    }

    @Test("Every bundled player name is a valid display name")
    func playerNames() throws {
        let names = GuessnumResources.playerNames
        #expect(names.count >= 20)
        for name in names { #expect((try? PeerID.validate(displayName: name)) != nil, "\(name)") }
        #expect(Set(names).count == names.count, "no duplicates")
    }
}
