import Foundation

/// Raw TCP's throughput on loopback, by Debian's `iperf3`: a one-off server (`iperf3 -s -1`)
/// on 127.0.0.1 and a client sending for a fixed time (`-t`: its steady rate, the stricter
/// baseline; a few hundred MiB last only a tenth of a second at its speed), one TCP stream, its
/// JSON report (`-J`) read for the receiver's rate. Both are this process's
/// children and are gone when it returns.
enum Iperf {
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    /// The path of `iperf3`, or nil when it is not installed (`apt-get install iperf3`).
    static var path: String? {
        for directory in ["/usr/bin", "/usr/local/bin", "/bin"] where FileManager.default.isExecutableFile(atPath: directory + "/iperf3") {
            return directory + "/iperf3"
        }
        return nil
    }

    /// Sends from an iperf3 client to an iperf3 server on loopback for `seconds`; the
    /// receiver's rate in MiB/s.
    static func measure(seconds: Int) throws -> Double {
        guard let path else { throw Unavailable(description: "iperf3 is not installed (apt-get install iperf3)") }
        let port = try freePort()
        let server = Process()
        // Under timeout(1), so that it cannot outlive a benchmark that died before its client ran.
        server.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        server.arguments = ["60", path, "-s", "-1", "-B", "127.0.0.1", "-p", String(port)]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            if server.isRunning { server.terminate() }
            server.waitUntilExit()
        }
        // The server needs a moment to listen: a refused client is tried again.
        for _ in 0..<50 {
            let (status, output) = try runClient(path, arguments: ["-c", "127.0.0.1", "-p", String(port), "-t", String(seconds), "-J"])
            let report = (try? JSONSerialization.jsonObject(with: output)) as? [String: Any]
            if status == 0, let end = report?["end"] as? [String: Any], let received = end["sum_received"] as? [String: Any],
                let bitsPerSecond = received["bits_per_second"] as? Double
            {
                return bitsPerSecond / 8 / 1_048_576
            }
            let error = report?["error"] as? String ?? ""
            guard error.contains("connect"), server.isRunning else {
                throw Unavailable(description: "iperf3 failed: \(error.isEmpty ? "exit status \(status)" : error)")
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw Unavailable(description: "iperf3's server never answered")
    }

    private static func runClient(_ path: String, arguments: [String]) throws -> (Int32, Data) {
        let client = Process()
        client.executableURL = URL(fileURLWithPath: path)
        client.arguments = arguments
        let output = Pipe()
        client.standardOutput = output
        client.standardError = FileHandle.nullDevice
        try client.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        client.waitUntilExit()
        return (client.terminationStatus, data)
    }

    /// A port free on 127.0.0.1 a moment ago (bound, read, closed).
    private static func freePort() throws -> Int {
        let (socket, port) = try RawSocket.listen(backlog: 1)
        withExtendedLifetime(socket) {}
        return port
    }
}
