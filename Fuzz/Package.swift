// swift-tools-version: 6.1
// libFuzzer targets for Sextant's parsers of outside input, a package of its own so that
// neither the root package nor CI's normal build builds it. Build and run them with
// Tools/ci/fuzz.sh (it passes -sanitize=fuzzer,address): each target's main hands its test
// function to libFuzzer's driver (CLibFuzzer), since SwiftPM gives executables their own main.

import PackageDescription

let package = Package(
    name: "SextantFuzz",
    dependencies: [
        .package(name: "Sextant", path: "..")
    ],
    targets: [
        .target(name: "CLibFuzzer"),
        // What every loaded trace must satisfy, checked by the trace targets.
        .target(
            name: "TraceInvariants",
            dependencies: [
                .product(name: "SextantTraces", package: "Sextant"), .product(name: "SextantCore", package: "Sextant"),
                .product(name: "SextantProtocol", package: "Sextant"),
            ]),
        // One JSON-RPC line as a socket reads it: JSONValue.parse, then RPCMessage.decode.
        .executableTarget(name: "fuzz-rpc-line", dependencies: ["CLibFuzzer", .product(name: "SextantProtocol", package: "Sextant")]),
        // A Sextant JSONL trace file.
        .executableTarget(
            name: "fuzz-jsonl-trace",
            dependencies: ["CLibFuzzer", "TraceInvariants", .product(name: "SextantTraces", package: "Sextant"), .product(name: "SextantCore", package: "Sextant")]),
        // An NMEA 0183 log.
        .executableTarget(
            name: "fuzz-nmea",
            dependencies: ["CLibFuzzer", "TraceInvariants", .product(name: "SextantTraces", package: "Sextant"), .product(name: "SextantCore", package: "Sextant")]),
        // A GPX file.
        .executableTarget(
            name: "fuzz-gpx",
            dependencies: ["CLibFuzzer", "TraceInvariants", .product(name: "SextantTraces", package: "Sextant"), .product(name: "SextantCore", package: "Sextant")]),
        // The bytes of D-Bus messages a peer sends, parsed by sd-bus and read by SextantDBus.
        .executableTarget(name: "fuzz-dbus-message", dependencies: ["CLibFuzzer", .product(name: "SextantDBus", package: "Sextant")]),
        // An Android GnssLogger recording.
        .executableTarget(
            name: "fuzz-gnsslogger",
            dependencies: ["CLibFuzzer", "TraceInvariants", .product(name: "SextantTraces", package: "Sextant"), .product(name: "SextantCore", package: "Sextant")]),
        // A GeoJSON file.
        .executableTarget(
            name: "fuzz-geojson",
            dependencies: ["CLibFuzzer", "TraceInvariants", .product(name: "SextantTraces", package: "Sextant"), .product(name: "SextantCore", package: "Sextant")]),
        // A KML file.
        .executableTarget(
            name: "fuzz-kml",
            dependencies: ["CLibFuzzer", "TraceInvariants", .product(name: "SextantTraces", package: "Sextant"), .product(name: "SextantCore", package: "Sextant")]),
        // One line from gpsd.
        .executableTarget(
            name: "fuzz-gpsd-report",
            dependencies: ["CLibFuzzer", .product(name: "SextantGPSD", package: "Sextant"), .product(name: "SextantCore", package: "Sextant")]),
        // The bytes a gpsd client sends to the gpsd face: its framing, requests and ?WATCH.
        .executableTarget(
            name: "fuzz-gpsd-request",
            dependencies: ["CLibFuzzer", .product(name: "SextantGPSD", package: "Sextant"), .product(name: "SextantProtocol", package: "Sextant")]),
        // A time-zone table file (--time-zone-table): the reader's checks at load, then lookups.
        .executableTarget(
            name: "fuzz-zone-table",
            dependencies: ["CLibFuzzer", .product(name: "SextantCore", package: "Sextant")]),
    ]
)
