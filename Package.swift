// swift-tools-version: 6.1
// Sextant: a Linux daemon that emulates a phone's location and orientation services.

import PackageDescription

let package = Package(
    name: "Sextant",
    products: [
        .executable(name: "sextantd", targets: ["sextantd"]),
        .executable(name: "sextantctl", targets: ["sextantctl"]),
        .executable(name: "sextant-sample-app", targets: ["SampleApp"]),
        // An app written in Swift depends on the wire types alone, or on the client.
        .library(name: "SextantProtocol", targets: ["SextantProtocol"]),
        .library(name: "SextantClient", targets: ["SextantClient"]),
        .library(name: "SextantCore", targets: ["SextantCore"]),
        // The trace readers and writer, for tools outside this package (Benchmarks/, Fuzz/).
        .library(name: "SextantTraces", targets: ["SextantTraces"]),
        // The gpsd source, for its report parser's fuzz target (Fuzz/).
        .library(name: "SextantGPSD", targets: ["SextantGPSD"]),
        // The D-Bus core, for its message reader's fuzz target (Fuzz/).
        .library(name: "SextantDBus", targets: ["SextantDBus"]),
        // The control panel in the browser: an HTTP and WebSocket face of control.sock.
        .executable(name: "sextant-panel", targets: ["sextant-panel"]),
        .executable(name: "sextant-browser", targets: ["sextant-browser"]),
        // The five programs in one binary, chosen by the name it is run as (argv[0]), as
        // busybox is: what `make install` and the .deb ship, so that the Swift runtime and the
        // packages linked in are there once, not five times.
        .executable(name: "sextant", targets: ["sextant"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        // Without its default trait ConfigurationSupport: nothing here reads swift-configuration.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
    ],
    targets: [
        // Wire types: JSON values, JSON-RPC envelope, error codes, names. No I/O.
        .target(name: "SextantProtocol"),

        // Unix socket plumbing shared by the daemon, the client and the tests: the
        // `sockaddr_un` of a path, a descriptor closed exactly once, SO_PEERCRED.
        .target(name: "SextantSocket"),

        // Pure engines (authorization, orientation, interface rules, posture), samples,
        // geo helpers and time. No I/O, no NIO, no wall clock.
        .target(name: "SextantCore", dependencies: ["SextantProtocol"]),

        // C libraries, reached through pkg-config.
        .systemLibrary(name: "CLibGPS", pkgConfig: "libgps", providers: [.apt(["libgps-dev"])]),
        .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        // glibc's <malloc.h>: the daemon returns connection buffers to the system.
        .systemLibrary(name: "CMalloc"),
        // setgroups(2), setfsuid(2), setfsgid(2) for the calling thread alone: the daemon opens
        // a control client's paths with the client's rights (PeerFileAccess).
        .systemLibrary(name: "CThreadCredentials"),
        // prctl(2) for `sextantctl run`: a subreaper, a death signal for COMMAND.
        .systemLibrary(name: "CProcessControl"),

        // The outside world turned into samples, one module per kind of source, so that a
        // program that reads traces (sextantctl) links neither libgps nor libudev.
        // Recorded traces: Sextant JSONL, NMEA 0183, GPX; the JSONL writer. No C library.
        .target(name: "SextantTraces", dependencies: ["SextantCore"]),
        // Live GPS from gpsd, through libgps.
        .target(
            name: "SextantGPSD",
            dependencies: [
                "SextantCore", "CLibGPS", .product(name: "Logging", package: "swift-log"),
                // Its socket is read on the hub's event loop (a NIO channel), not a thread of its own.
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // Live accelerometer and hinge from Linux IIO devices, found and watched through libudev.
        .target(
            name: "SextantIIO",
            dependencies: ["SextantCore", "CUdev", .product(name: "Logging", package: "swift-log")]
        ),

        // D-Bus through sd-bus: a connection on its own thread, objects exported from tables
        // of interfaces (methods, properties, signals), Properties and Introspectable answered
        // from the same tables. No NIO: the daemon's D-Bus faces hop onto the hub themselves.
        .target(name: "SextantDBus", dependencies: ["CSystemd"]),

        // Decisions that must survive a restart, in SQLite (WAL).
        .target(
            name: "SextantStore",
            dependencies: ["SextantCore", .product(name: "GRDB", package: "GRDB.swift")]
        ),

        // The hub that owns state: the sessions, the engines' services, the method tables, the
        // replay, and the line writer every face shares. A face reaches it only through its
        // `package` host API (Sources/SextantHub/Hub/Hub+Host.swift).
        .target(
            name: "SextantHub",
            dependencies: [
                "SextantCore", "SextantTraces", "SextantStore", "SextantSocket", "CMalloc", "CThreadCredentials",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // app.sock and control.sock: JSON-RPC lines to and from the hub's method tables, over its host API.
        .target(
            name: "SextantSocketFace",
            dependencies: [
                "SextantHub", "SextantCore", "SextantSocket",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The gpsd face: gpsd's protocol on TCP, over the hub's host API.
        .target(
            name: "SextantGPSDFace",
            dependencies: [
                "SextantHub", "SextantCore", "SextantGPSD", "SextantSocket", "SextantTraces",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The D-Bus faces (iio-sensor-proxy's, GeoClue's) on one bus connection, over the hub's host API.
        .target(
            name: "SextantDBusFaces",
            dependencies: [
                "SextantHub", "SextantCore", "SextantDBus",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The daemon: the hub, its faces and the live feeds, wired and started.
        .target(
            name: "SextantServer",
            dependencies: [
                "SextantHub", "SextantSocketFace", "SextantGPSDFace", "SextantDBusFaces",
                "SextantCore", "SextantTraces", "SextantGPSD", "SextantIIO", "SextantStore", "SextantSocket", "SextantDBus",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),

        // The one client of both sockets: sextantctl, the panel, the bridge, the sample app,
        // tests and apps. A thread of its own reads; tasks await answers and events.
        .target(name: "SextantClient", dependencies: ["SextantProtocol", "SextantSocket"]),

        // Each program is a library of its own (its command, without @main) and a two-line
        // executable; the multi-call `sextant` links all five libraries.
        .target(
            name: "SextantdMain",
            dependencies: [
                "SextantServer", "SextantHub", "SextantGPSDFace", "SextantTraces", "SextantGPSD", "SextantIIO", "SextantDBus",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Sources/sextantd"
        ),
        .target(
            name: "SextantctlMain",
            dependencies: [
                "SextantClient", "SextantTraces", "CProcessControl",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/sextantctl"
        ),

        // The panel: the router table, the token, the Origin check, the security headers, the
        // static files and a page's WebSocket session, all on one control connection to the daemon.
        .target(
            name: "SextantPanel",
            dependencies: [
                "SextantClient", "SextantProtocol", "SextantSocket", "SextantCore", "SextantTraces", "CMalloc",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .target(
            name: "SextantPanelMain",
            dependencies: ["SextantPanel", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Sources/sextant-panel"
        ),

        // The Chromium bridge: a CDP client (commands, answers, events, a session per page) and
        // the pure mapping from Sextant's app events to CDP commands.
        .target(
            name: "SextantBrowser",
            dependencies: [
                "SextantProtocol", "SextantClient", "SextantSocket", "CProcessControl",
                // A WebSocket client of NIO's own parts: the browser's endpoint is ws:// on
                // loopback, so nothing of TLS (swift-nio-ssl) is built for it.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // `sextantctl browser` execs it, so that sextantctl links no WebSocket stack.
        .target(
            name: "SextantBrowserMain",
            dependencies: ["SextantBrowser", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Sources/sextant-browser"
        ),

        // A minimal app, as an example of the app protocol (the demo runs it).
        .target(
            name: "SampleAppMain",
            dependencies: ["SextantClient", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Sources/SampleApp"
        ),

        .executableTarget(name: "sextantd", dependencies: ["SextantdMain"], path: "Sources/Programs/sextantd"),
        .executableTarget(name: "sextantctl", dependencies: ["SextantctlMain"], path: "Sources/Programs/sextantctl"),
        .executableTarget(name: "sextant-panel", dependencies: ["SextantPanelMain"], path: "Sources/Programs/sextant-panel"),
        .executableTarget(name: "sextant-browser", dependencies: ["SextantBrowserMain"], path: "Sources/Programs/sextant-browser"),
        .executableTarget(name: "SampleApp", dependencies: ["SampleAppMain"], path: "Sources/Programs/sextant-sample-app"),
        .executableTarget(
            name: "sextant",
            dependencies: ["SextantdMain", "SextantctlMain", "SextantPanelMain", "SextantBrowserMain", "SampleAppMain"],
            path: "Sources/Programs/sextant"
        ),

        // What the test targets share: the seeded generator, child processes, temporary
        // directories, waits with a deadline, and what a test needs of the machine.
        .target(name: "SextantTestSupport", dependencies: ["SextantCore"], path: "Tests/SextantTestSupport"),

        .testTarget(name: "SextantProtocolTests", dependencies: ["SextantProtocol"]),
        .testTarget(
            name: "SextantBrowserTests",
            dependencies: [
                "SextantBrowser", "SextantProtocol",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
        .testTarget(name: "SextantSocketTests", dependencies: ["SextantSocket"]),
        .testTarget(name: "SextantCoreTests", dependencies: ["SextantCore", "SextantTestSupport"]),
        .testTarget(name: "SextantTracesTests", dependencies: ["SextantTraces", "SextantTestSupport"]),
        .testTarget(
            name: "SextantGPSDTests",
            dependencies: [
                "SextantGPSD", "SextantTestSupport", .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "SextantIIOTests", dependencies: ["SextantIIO", "SextantTestSupport"]),
        .testTarget(name: "SextantStoreTests", dependencies: ["SextantStore", "SextantTestSupport"]),
        .testTarget(name: "SextantDBusTests", dependencies: ["SextantDBus", "SextantTestSupport"]),
        .testTarget(
            name: "SextantServerTests",
            dependencies: [
                "SextantServer", "SextantHub", "SextantSocketFace", "SextantGPSDFace", "SextantDBusFaces", "SextantGPSD", "SextantStore",
                "SextantTraces",
                "SextantTestSupport",
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "SextantPanelTests",
            dependencies: [
                "SextantPanel", "SextantTestSupport", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["SextantClient", "SextantProtocol", "SextantSocket", "SextantTraces", "SextantTestSupport"]
        ),
    ]
)
