import Foundation

/// What the benchmark ran on, printed with every result.
struct MachineInfo: Codable, Sendable {
    var cpu: String
    var cores: Int
    var memoryGiB: Double
    var kernel: String
    var descriptorLimit: Int

    static func current(descriptorLimit: Int) -> MachineInfo {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n")
            .first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
        var name = utsname()
        uname(&name)
        let release = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return MachineInfo(
            cpu: model,
            cores: ProcessInfo.processInfo.activeProcessorCount,
            memoryGiB: (Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824 * 10).rounded() / 10,
            kernel: "Linux \(release)",
            descriptorLimit: descriptorLimit
        )
    }

    var summary: String {
        "\(cpu), \(cores) cores, \(memoryGiB) GiB, \(kernel), ulimit -n \(descriptorLimit)"
    }
}
