// swift-tools-version: 6.1
// Benchmarks of Sextant, kept out of the root package so that CI never builds them.
// Run: Tools/bench-nmea.sh (or swift run -c release --package-path Benchmarks NMEAThroughput LOG).

import PackageDescription

let package = Package(
    name: "SextantBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "Sextant", path: "..")],
    targets: [
        .executableTarget(
            name: "NMEAThroughput",
            dependencies: [
                .product(name: "SextantSources", package: "Sextant"),
                .product(name: "SextantCore", package: "Sextant"),
            ]
        )
    ]
)
