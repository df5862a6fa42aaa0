// guessnum-fuzz TARGET [libFuzzer options] [CORPUS…] — runs one fuzz target under libFuzzer.
// Built only by scripts/fuzz (GUESSNUM_FUZZ=1, -sanitize=fuzzer,address); see FuzzTarget.swift.
import Foundation

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

var arguments = CommandLine.arguments
if arguments.count == 3, arguments[1] == "--write-seeds" {
    do { try Seeds.write(to: URL(fileURLWithPath: arguments[2])) } catch {
        FileHandle.standardError.write(Data("guessnum-fuzz: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
guard arguments.count >= 2, let target = FuzzTarget(rawValue: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: guessnum-fuzz \(FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")) [libFuzzer options] [corpus…]\n".utf8))
    exit(64)
}
FuzzTarget.current = target
arguments.remove(at: 1)
var argc = Int32(arguments.count)
var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
let status = cArguments.withUnsafeMutableBufferPointer { buffer -> Int32 in
    var argv = buffer.baseAddress
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        FuzzTarget.current?.run(UnsafeBufferPointer(start: data, count: size))
        return 0
    }
}
exit(status)
