import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `guessnum-bench resources`: a resource (issue 26) over TLS 1.3 on loopback between two
/// processes, beside `scp` of the same file to an sshd of the benchmark's own on 127.0.0.1, in
/// the same run; each side's resident-memory growth during the transfer; and a transfer whose
/// link the receiver cuts halfway, resumed after the sender invites it again, with the stream
/// bytes sent twice. A summary on standard error, one JSON object on standard output (for
/// scripts/bench). Its files live in a scratch directory that it removes at the end.
struct ResourceBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resources", abstract: "Measure resources: a large file against scp, memory growth, and a transfer cut halfway and resumed.")

    @Option(help: "The file's size in MiB.") var mebibytes = 1024
    @Option(help: "The part of the file the receiver holds when it cuts the link, from 0 (no cut transfer) to below 1.") var cutAt = 0.5
    @Option(help: "scp ciphers to measure, each a run of its own; `default` is OpenSSH's own choice.")
    var scpCipher: [String] = ["default", "aes128-gcm@openssh.com"]
    @Flag(help: "Experiments: no scp baseline.") var noScp = false
    @Flag(inversion: .prefixedNo, help: "Send the file once, not measured, before the measured transfers.") var warmUp = true
    @Option(help: "A directory for the files (made when missing; what the benchmark makes there is removed at the end).")
    var scratch: String?
    @Option(help: "Seconds after which the benchmark gives up (its children go with it, its files are removed).") var timeLimit: Double = 170

    func validate() throws {
        guard (1...8192).contains(mebibytes) else { throw ValidationError("--mebibytes must be from 1 to 8192.") }
        guard cutAt >= 0, cutAt < 1 else { throw ValidationError("--cut-at must be from 0 to below 1.") }
    }

    func run() async throws {
        BenchLogging.bootstrap()
        signal(SIGPIPE, SIG_IGN)
        let parent = URL(fileURLWithPath: scratch ?? NSTemporaryDirectory())
        let directory = parent.appendingPathComponent("guessnum-bench-resources-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let limit = timeLimit
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: limit)
            FileHandle.standardError.write(Data("guessnum-bench resources: still running after \(Int(limit)) s; giving up\n".utf8))
            try? FileManager.default.removeItem(at: directory)
            Glibc.exit(3)  // the sink sees its input end and leaves; sshd's timeout(1) ends it
        }
        defer { try? FileManager.default.removeItem(at: directory) }
        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").first.map(String.init) ?? "?"
        var result: [String: Any] = ["mode": "resources", "mebibytes": mebibytes, "loadavg_1m": load, "cut_at": cutAt]

        let source = directory.appendingPathComponent("outbox/bench.bin")
        let inbox = directory.appendingPathComponent("inbox")
        let scpInbox = directory.appendingPathComponent("scp")
        for folder in [source.deletingLastPathComponent(), inbox, scpInbox] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        let clock = MonotonicClock.nanoseconds()
        try BenchFile.make(at: source, bytes: mebibytes << 20)
        settle()
        result["make_file_s"] = Double(MonotonicClock.nanoseconds() - clock) / 1e9
        let mebibytes = Double(self.mebibytes)

        // 1. The whole file, then scp of it. First one transfer not measured: on this VM the
        // first gigabyte of page cache a run writes takes fresh pages (the receiver's CPU per
        // MiB up to 2.5× that of later transfers), which scp, coming later, would not pay; so
        // every measured transfer writes into pages a removed copy freed.
        let transfers = try await ResourceTransfer.start(inbox: inbox)
        var first: ResourceTransfer.Outcome?
        if warmUp {
            let warm = try await transfers.send(source, cutAt: 0)
            try removeSaved(warm.receiver)
            result["warm_up_s"] = warm.seconds
            first = warm
        }
        let whole = try await transfers.send(source, cutAt: 0)
        try removeSaved(whole.receiver)
        let rate = mebibytes / whole.seconds
        result["resource_s"] = whole.seconds
        result["resource_mib_s"] = rate
        result["resource_hash_s"] = whole.hashSeconds
        result["sender_cpu_ms_per_mib"] = Double(whole.senderCPUNanoseconds) / 1e6 / mebibytes
        result["receiver_cpu_ms_per_mib"] = Double(whole.receiver["cpu_ns"] as? UInt64 ?? 0) / 1e6 / mebibytes
        let offered = whole.receiver["offered_ns"] as? UInt64 ?? 0
        if let first = whole.receiver["first_bytes_ns"] as? UInt64, let last = whole.receiver["all_bytes_ns"] as? UInt64,
            let saved = whole.receiver["saved_ns"] as? UInt64, first >= offered, last >= first, saved >= last
        {
            // From the offer to the first bytes on disk, to the last, to the file checked and in place.
            result["phases_s"] = ["accept": Double(first - offered) / 1e9, "bytes": Double(last - first) / 1e9, "check_and_place": Double(saved - last) / 1e9]
            result["bytes_mib_s"] = mebibytes / (Double(last - first) / 1e9)
        }
        // Memory growth from the first transfer of the run: later ones start from what the
        // allocators kept of it, and would understate it.
        let fresh = first ?? whole
        result["sender_memory"] = fresh.senderMemory.json
        result["receiver_memory"] = memory(of: fresh.receiver)
        result["sender_memory_measured_transfer"] = whole.senderMemory.json
        result["receiver_memory_measured_transfer"] = memory(of: whole.receiver)
        note(String(format: "CPU ms/MiB %.2f sending, %.2f receiving", result["sender_cpu_ms_per_mib"] as? Double ?? -1, result["receiver_cpu_ms_per_mib"] as? Double ?? -1))
        note(String(format: "resource: %.2f s (%.2f s hashing before the offer), %.0f MiB/s; RSS growth: sender %.1f MiB, receiver %.1f MiB; phases %@",
                    whole.seconds, whole.hashSeconds, rate, Double(fresh.senderMemory.growthKB) / 1024, Double(growth(of: fresh.receiver)) / 1024,
                    "\(result["phases_s"] ?? "?")"))

        var scps: [[String: Any]] = []
        if !noScp, !scpCipher.isEmpty {
            let ssh = try ScpBaseline(directory: directory.appendingPathComponent("ssh"))
            defer { ssh.stop() }
            for cipher in scpCipher {
                let choice = cipher == "default" ? nil : cipher
                let negotiated = ssh.negotiatedCipher(choice)
                let copy = scpInbox.appendingPathComponent("bench.bin")
                let seconds = try ssh.copy(source, to: copy, cipher: choice)
                let size = try FileManager.default.attributesOfItem(atPath: copy.path)[.size] as? Int
                try FileManager.default.removeItem(at: copy)
                settle()
                guard size == self.mebibytes << 20 else { throw BenchFailure("scp copied \(size ?? -1) bytes") }
                scps.append(["cipher": cipher, "negotiated": negotiated, "seconds": seconds, "mib_s": mebibytes / seconds])
                note(String(format: "scp (%@): %.2f s, %.0f MiB/s", negotiated, seconds, mebibytes / seconds))
            }
        }
        result["scp"] = scps
        if let first = scps.first?["mib_s"] as? Double { result["resource_vs_scp"] = rate / first }
        if let fastest = scps.compactMap({ $0["mib_s"] as? Double }).max() { result["resource_vs_fastest_scp"] = rate / fastest }

        // 2. The same file again, the link cut halfway and resumed: cut by the receiver, then by the sender.
        if cutAt > 0 {
            var cuts: [[String: Any]] = []
            for cutter in [ResourceTransfer.Cutter.sender, .receiver] {
                let cut = try await transfers.send(source, cutAt: cutAt, by: cutter)
                try removeSaved(cut.receiver)
                let size = self.mebibytes << 20
                let resent = cut.sentBeforeCut + cut.sentAfterCut - size
                var report: [String: Any] = [
                    "cut_by": cutter.rawValue, "seconds": cut.seconds, "sent_before_cut": cut.sentBeforeCut, "sent_after_resume": cut.sentAfterCut,
                    "resent_bytes": resent, "sender_memory": cut.senderMemory.json, "receiver_memory": memory(of: cut.receiver),
                ]
                if let held = cut.cut?["held"] as? Int {
                    report["held_at_cut"] = held
                    // The brief's reckoning: sent after the resume minus what was missing at the cut.
                    report["resent_vs_held_bytes"] = cut.sentAfterCut - (size - held)
                }
                if let sent = cut.cut?["sent"] as? Int64 { report["sender_progress_at_cut"] = sent }
                if let back = cut.receiver["held_when_back"] as? Int { report["held_when_back"] = back }
                report["sender_cpu_ms_per_mib"] = Double(cut.senderCPUNanoseconds) / 1e6 / mebibytes
                report["receiver_cpu_ms_per_mib"] = Double(cut.receiver["cpu_ns"] as? UInt64 ?? 0) / 1e6 / mebibytes
                if let at = cut.cut?["cut_ns"] as? UInt64, at >= cut.startNanoseconds {
                    report["cut_after_s"] = Double(at - cut.startNanoseconds) / 1e9
                }
                if let again = cut.reconnection {
                    report["invitations"] = again.attempts
                    if let backAt = again.backAt { report["reconnect_ms"] = Double(backAt - again.droppedAt) / 1e6 }
                }
                cuts.append(report)
                note(String(format: "cut by the %@ at %.0f%%: sent %d before the cut and %d after: %d bytes re-sent; %.2f s in all, the cut after %.2f s; CPU ms/MiB %.2f sending, %.2f receiving", cutter.rawValue,
                            cutAt * 100, cut.sentBeforeCut, cut.sentAfterCut, resent, cut.seconds, report["cut_after_s"] as? Double ?? -1,
                            report["sender_cpu_ms_per_mib"] as? Double ?? -1, report["receiver_cpu_ms_per_mib"] as? Double ?? -1))
            }
            result["cuts"] = cuts
        }
        await transfers.stop()
        try? FileManager.default.removeItem(at: directory)

        let data = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }

    /// The child's memory fields of a `saved` report.
    private func memory(of report: [String: Any]) -> [String: Int] {
        var memory: [String: Int] = [:]
        for key in ["rss_baseline_kb", "rss_peak_growth_kb", "rss_sampled_growth_kb"] { memory[key] = report[key] as? Int ?? 0 }
        return memory
    }

    private func growth(of report: [String: Any]) -> Int {
        max(report["rss_peak_growth_kb"] as? Int ?? 0, report["rss_sampled_growth_kb"] as? Int ?? 0)
    }

    /// Removes the file the child saved (it is in the scratch directory), and lets the disk settle.
    private func removeSaved(_ report: [String: Any]) throws {
        guard let path = report["path"] as? String else { return }
        try FileManager.default.removeItem(atPath: path)
        settle()
    }

    /// Waits for the file system to write out what is pending (`sync`): the source file just
    /// made, and the freeing of a removed 1 GiB file (on a file system mounted with `discard`,
    /// as this VM's is, that trims its blocks), so that none of it runs during the next
    /// measurement.
    private func settle() {
        sync()
    }

    private func note(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
