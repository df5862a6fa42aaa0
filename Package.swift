// swift-tools-version: 6.1
import Foundation
import PackageDescription

let package = Package(
    name: "guessnum",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Multipeer", targets: ["Multipeer"]),
        .library(name: "MultipeerPOSIX", targets: ["MultipeerPOSIX"]),
        .library(name: "MultipeerNIO", targets: ["MultipeerNIO"]),
        .library(name: "MultipeerAvahi", targets: ["MultipeerAvahi"]),
        .library(name: "MultipeerTesting", targets: ["MultipeerTesting"]),
        .library(name: "EventBus", targets: ["EventBus"]),
        .library(name: "PAKE", targets: ["PAKE"]),
        .library(name: "Rooms", targets: ["Rooms"]),
        .library(name: "TicTacToe", targets: ["TicTacToe"]),
        .library(name: "RockPaperScissors", targets: ["RockPaperScissors"]),
        .library(name: "Snap", targets: ["Snap"]),
        .library(name: "GuessnumGame", targets: ["GuessnumGame"]),
        .executable(name: "guessnum", targets: ["guessnum"]),
        .executable(name: "guessnum-bench", targets: ["guessnum-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .target(name: "EventBus"),
        .target(
            name: "Multipeer",
            dependencies: [
                "EventBus", "SafeText", .product(name: "Logging", package: "swift-log"), .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // What the core leaves to the operating system (as NIOCore leaves syscalls to NIOPosix):
        // keys and private files on disk, the claim on an identity, the network interfaces, the
        // files resources are sent from, received into and kept for a restart, the real clock's
        // ticks and threads of their own (onOwnThread).
        .target(name: "MultipeerPOSIX", dependencies: ["Multipeer", "SafeText", "CSyncFS"]),
        .target(
            name: "MultipeerNIO",
            dependencies: [
                "Multipeer", "MultipeerPOSIX",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The C libraries come from Debian's libavahi-client-dev and libreadline-dev (installed by
        // scripts/lib/packages.sh); their headers are on the standard path and the module maps
        // name the libraries to link. No pkgConfig: their .pc files only add -D flags, which
        // SwiftPM refuses with a warning on every build.
        .systemLibrary(name: "CAvahi"),
        .target(name: "MultipeerAvahi", dependencies: ["Multipeer", "CAvahi", .product(name: "Logging", package: "swift-log")]),
        .target(name: "MultipeerTesting", dependencies: ["Multipeer", "MultipeerPOSIX", "EventBus"]),
        .systemLibrary(name: "CReadline"),
        // libsodium (Debian's libsodium-dev) for the ristretto255 group that CPace runs on.
        .systemLibrary(name: "CLDNS"),
        .target(name: "MultipeerUnicastDNS", dependencies: ["Multipeer", "MultipeerPOSIX", "CLDNS", .product(name: "Logging", package: "swift-log")]),
        .systemLibrary(name: "CSodium"),
        // glibc's heap statistics, for the benchmark's memory figures.
        .systemLibrary(name: "CMalloc"),
        // syncfs and sync_file_range, for received files put on the disk in groups.
        .systemLibrary(name: "CSyncFS"),
        .target(name: "PAKE", dependencies: ["CSodium", .product(name: "Crypto", package: "swift-crypto")]),
        .target(name: "SafeText"),
        // The room layer: everything a party game needs that is not a rule of the game.
        .target(name: "Rooms", dependencies: ["EventBus", "Multipeer", "PAKE", "SafeText", .product(name: "Logging", package: "swift-log")]),
        // The games beside guess-the-number, each its rules on the room layer.
        .target(name: "TicTacToe", dependencies: ["Rooms", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .target(name: "Snap", dependencies: ["Rooms", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .target(name: "RockPaperScissors", dependencies: ["Rooms", .product(name: "ArgumentParser", package: "swift-argument-parser"), .product(name: "Crypto", package: "swift-crypto")]),
        .target(name: "GuessnumTerminal", dependencies: ["CReadline"]),
        .target(
            name: "GuessnumGame",
            dependencies: [
                "Rooms", "Multipeer", "EventBus", "SafeText", "PAKE", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"), .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "GuessnumResources",
            path: "Resources",
            resources: [.copy("player-names.txt")]
        ),
        .target(
            name: "GuessnumStore",
            dependencies: [
                "GuessnumGame", "Multipeer", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "GuessnumApp",
            dependencies: [
                "Multipeer", "MultipeerPOSIX", "MultipeerUnicastDNS", "EventBus", "GuessnumGame", "GuessnumStore", "GuessnumTerminal", "SafeText",
                "GuessnumResources",
                "TicTacToe", "RockPaperScissors", "Snap", .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "guessnum",
            dependencies: [
                "GuessnumApp", "TicTacToe", "RockPaperScissors", "Multipeer", "MultipeerPOSIX", "MultipeerNIO", "MultipeerAvahi", "MultipeerUnicastDNS", "GuessnumGame",
                "GuessnumStore", "GuessnumTerminal", "SafeText",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "guessnum-bench",
            dependencies: [
                "Multipeer", "MultipeerPOSIX", "MultipeerNIO", "MultipeerUnicastDNS", "EventBus", "GuessnumGame", "GuessnumStore", "Rooms", "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                // The byte-stream benchmark's raw TLS pipe, the baseline for Session streams.
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
            ]
        ),
        .target(
            name: "MultipeerTestSupport",
            dependencies: [
                "Multipeer", "MultipeerPOSIX", "MultipeerNIO", "EventBus", .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"), .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/MultipeerTestSupport"
        ),
        .executableTarget(
            name: "ConsoleDemo",
            dependencies: ["GuessnumTerminal", "SafeText"],
            path: "Tests/ConsoleDemo"
        ),
        .testTarget(
            name: "GuessnumTerminalTests",
            dependencies: ["GuessnumTerminal", "SafeText", "MultipeerTestSupport"]
        ),
        .executableTarget(
            name: "SessionPeer",
            dependencies: ["Multipeer", "MultipeerNIO"],
            path: "Tests/SessionPeer"
        ),
        .executableTarget(
            name: "RelayPeer",
            dependencies: ["Multipeer", "MultipeerNIO"],
            path: "Tests/RelayPeer"
        ),
        .executableTarget(
            name: "DiscoveryProbe",
            dependencies: ["Multipeer", "MultipeerAvahi", "MultipeerNIO"],
            path: "Tests/DiscoveryProbe"
        ),
        .testTarget(
            name: "MultipeerAvahiTests",
            dependencies: ["Multipeer", "MultipeerAvahi", "CAvahi", "MultipeerTestSupport"]
        ),
        .testTarget(name: "EventBusTests", dependencies: ["EventBus"]),
        .testTarget(name: "PAKETests", dependencies: ["PAKE"]),
        .testTarget(
            name: "RoomsTests",
            dependencies: ["Rooms", "Multipeer", "MultipeerNIO", "MultipeerTesting", "MultipeerTestSupport", "TicTacToe", "RockPaperScissors"]),
        .testTarget(name: "TicTacToeTests", dependencies: ["TicTacToe", "Rooms"]),
        .testTarget(name: "RockPaperScissorsTests", dependencies: ["RockPaperScissors", "Rooms"]),
        .testTarget(name: "SnapTests", dependencies: ["Snap", "Rooms"]),
        .testTarget(
            name: "MultipeerUnicastDNSTests",
            dependencies: ["MultipeerUnicastDNS", "Multipeer", "MultipeerTestSupport", "EventBus"]),
        .testTarget(
            name: "GuessnumStoreTests",
            dependencies: ["GuessnumStore", "GuessnumGame", "Rooms", "TicTacToe", "Snap", "Multipeer", "MultipeerTestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(
            name: "GuessnumAppTests",
            dependencies: [
                "GuessnumApp", "MultipeerUnicastDNS", "GuessnumGame", "GuessnumStore", "GuessnumTerminal", "Multipeer", "MultipeerTesting", "MultipeerTestSupport", "EventBus", "TicTacToe", "RockPaperScissors", "Snap",
                .product(name: "Logging", package: "swift-log"), .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "GuessnumGameTests",
            dependencies: ["GuessnumGame", "Multipeer", "MultipeerTesting", "MultipeerNIO", "MultipeerTestSupport", "EventBus", "Rooms"]
        ),
        .testTarget(
            name: "GuessnumTests",
            dependencies: ["GuessnumResources", "GuessnumStore", "Multipeer", "MultipeerTestSupport", "MultipeerUnicastDNS", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(name: "MultipeerTests", dependencies: ["Multipeer", "MultipeerPOSIX", "MultipeerTesting", "MultipeerTestSupport", "Rooms"]),
        .testTarget(
            name: "MultipeerNIOTests",
            dependencies: [
                "Multipeer", "MultipeerPOSIX", "MultipeerNIO", "MultipeerTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOTestUtils", package: "swift-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The fuzzer (scripts/fuzz): built only when GUESSNUM_FUZZ is set, with libFuzzer and
// AddressSanitizer, so that ordinary builds never need its runtime.
if ProcessInfo.processInfo.environment["GUESSNUM_FUZZ"] != nil {
    package.targets.append(
        .executableTarget(
            name: "guessnum-fuzz", dependencies: ["Multipeer", "MultipeerAvahi", "GuessnumGame", "Rooms", "TicTacToe", "RockPaperScissors", "Snap"],
            path: "Fuzz/guessnum-fuzz"))
}
