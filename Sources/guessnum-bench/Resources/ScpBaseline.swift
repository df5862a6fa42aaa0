import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `scp` of a file over loopback, the resource benchmark's baseline: Debian's OpenSSH server,
/// started by the benchmark itself on 127.0.0.1 on a free port with a config, a host key and
/// one authorized client key of its own in `directory` (nothing of the system's sshd or of the
/// user's ssh config is used), in the foreground (`sshd -D -e`) under `timeout(1)` so that it
/// cannot outlive a benchmark that died; ``stop()`` ends it by its PID.
final class ScpBaseline {
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    private let directory: URL
    private let port: Int
    private let server: Process

    /// The client's options: this key only, no config file, no known-hosts file, no prompts.
    private var clientOptions: [String] {
        ["-F", "/dev/null", "-i", directory.appendingPathComponent("client_key").path, "-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes",
         "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR"]
    }

    /// Makes the keys and config in `directory` and starts sshd; returns once it answers.
    init(directory: URL) throws {
        for tool in ["/usr/sbin/sshd", "/usr/bin/scp", "/usr/bin/ssh-keygen"] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw Unavailable(description: "\(tool) is missing (apt-get install openssh-server openssh-client)")
        }
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for key in ["host_key", "client_key"] {
            try Self.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", directory.appendingPathComponent(key).path])
        }
        try FileManager.default.copyItem(
            at: directory.appendingPathComponent("client_key.pub"), to: directory.appendingPathComponent("authorized_keys"))
        // sshd refuses to start without its privilege-separation directory (Debian's service makes it).
        try FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        port = try Self.freePort()
        let config = """
            Port \(port)
            ListenAddress 127.0.0.1
            HostKey \(directory.appendingPathComponent("host_key").path)
            PidFile \(directory.appendingPathComponent("sshd.pid").path)
            AuthorizedKeysFile \(directory.appendingPathComponent("authorized_keys").path)
            PubkeyAuthentication yes
            PasswordAuthentication no
            KbdInteractiveAuthentication no
            PermitRootLogin prohibit-password
            UsePAM no
            StrictModes no
            Subsystem sftp /usr/lib/openssh/sftp-server

            """
        let configURL = directory.appendingPathComponent("sshd_config")
        try config.write(to: configURL, atomically: true, encoding: .utf8)
        server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        server.arguments = ["150", "/usr/sbin/sshd", "-f", configURL.path, "-D", "-e"]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        // sshd needs a moment to listen: try a command until it answers.
        for _ in 0..<100 {
            if (try? Self.run("/usr/bin/ssh", clientOptions + ["-p", String(port), "root@127.0.0.1", "true"])) != nil { return }
            guard server.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        stop()
        throw Unavailable(description: "the benchmark's sshd did not answer on 127.0.0.1:\(port)")
    }

    /// The cipher the client and this server agree on with `cipher` (nil: OpenSSH's default).
    func negotiatedCipher(_ cipher: String?) -> String {
        let options = clientOptions + (cipher.map { ["-c", $0] } ?? []) + ["-v", "-p", String(port), "root@127.0.0.1", "true"]
        guard let log = try? Self.run("/usr/bin/ssh", options, capturingStandardError: true) else { return "?" }
        // "debug1: kex: server->client cipher: chacha20-poly1305@openssh.com MAC: <implicit> compression: none"
        for line in log.split(separator: "\n") where line.contains("kex: client->server cipher:") {
            return line.components(separatedBy: "cipher: ").last?.split(separator: " ").first.map(String.init) ?? "?"
        }
        return "?"
    }

    /// Copies `file` to `destination` on this server with scp (`cipher`: `-c`; nil for the
    /// default); the seconds it took, from starting scp to its end.
    func copy(_ file: URL, to destination: URL, cipher: String?) throws -> Double {
        let start = MonotonicClock.nanoseconds()
        try Self.run("/usr/bin/scp", clientOptions + (cipher.map { ["-c", $0] } ?? []) + ["-q", "-P", String(port), file.path, "root@127.0.0.1:\(destination.path)"])
        return Double(MonotonicClock.nanoseconds() - start) / 1e9
    }

    /// Ends sshd by the PID it wrote, and waits for it (its `timeout` parent ends with it). Not
    /// by signalling `timeout`: it inherits this process's blocked signals and would not pass a
    /// SIGTERM on (its own deadline still works).
    func stop() {
        guard server.isRunning else { return }
        let pidFile = directory.appendingPathComponent("sshd.pid").path
        if let text = try? String(contentsOfFile: pidFile, encoding: .utf8), let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            kill(pid, SIGTERM)
        } else {
            kill(server.processIdentifier, SIGKILL)  // sshd then ends at timeout's deadline
        }
        server.waitUntilExit()
    }

    /// Runs `tool` with `arguments` to its end; its standard error when asked. Throws when it fails.
    @discardableResult
    private static func run(_ tool: String, _ arguments: [String], capturingStandardError: Bool = false) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let output = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: output, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw Unavailable(description: "\((tool as NSString).lastPathComponent) failed (\(process.terminationStatus)): \(text)")
        }
        return capturingStandardError ? text : ""
    }

    /// A port free on 127.0.0.1 a moment ago (bound, read, closed).
    private static func freePort() throws -> Int {
        let (socket, port) = try RawSocket.listen(backlog: 1)
        withExtendedLifetime(socket) {}
        return port
    }
}
