// swift-tools-version: 6.1
// Benchmarks and measured figures for Sextant, a package of its own so that neither the
// root package nor CI builds it. `swift package benchmark` runs the benchmarks;
// `swift run -c release orientation-figures`, `swift run -c release gnss-figures` and
// Tools/bench/bench-nmea.sh print figures.

import PackageDescription

let package = Package(
    name: "SextantBenchmarks",
    dependencies: [
        .package(name: "Sextant", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // Realistic accelerometer streams (hand turns with Gaussian noise), shared by the
        // benchmark and the figures.
        .target(
            name: "OrientationWorkload",
            dependencies: [.product(name: "SextantCore", package: "Sextant")]
        ),

        // Decision latency of the orientation judge, in trace time, and a plain timing of
        // its cost per sample: `swift run -c release orientation-figures`.
        .executableTarget(
            name: "orientation-figures",
            dependencies: ["OrientationWorkload", .product(name: "SextantCore", package: "Sextant")]
        ),

        // CPU cost of judging 100 Hz samples: `swift package benchmark`.
        .executableTarget(
            name: "OrientationJudge",
            dependencies: [
                "OrientationWorkload",
                .product(name: "SextantCore", package: "Sextant"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/OrientationJudge",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),

        // The GNSS profile's cost per fix beside the decision's:
        // `swift run -c release gnss-figures`.
        .executableTarget(
            name: "gnss-figures",
            dependencies: [
                .product(name: "SextantCore", package: "Sextant"),
                .product(name: "SextantProtocol", package: "Sextant"),
            ]
        ),

        // The time-zone table's size, load time and lookup cost beside a plain fix's:
        // `swift run -c release tz-figures`.
        .executableTarget(
            name: "tz-figures",
            dependencies: [
                .product(name: "SextantCore", package: "Sextant"),
                .product(name: "SextantProtocol", package: "Sextant"),
            ]
        ),

        // The regions' cost per fix, 20,000 and 100,000 regions:
        // `swift run -c release region-figures`.
        .executableTarget(
            name: "region-figures",
            dependencies: [
                .product(name: "SextantCore", package: "Sextant"),
                .product(name: "SextantProtocol", package: "Sextant"),
            ]
        ),

        // The heading engine's cost per sample beside the orientation judge's:
        // `swift run -c release heading-figures`.
        .executableTarget(
            name: "heading-figures",
            dependencies: [
                "OrientationWorkload",
                .product(name: "SextantCore", package: "Sextant"),
                .product(name: "SextantProtocol", package: "Sextant"),
            ]
        ),

        // NMEA decode throughput: Tools/bench/bench-nmea.sh (or `swift run -c release NMEAThroughput LOG`).
        .executableTarget(
            name: "NMEAThroughput",
            dependencies: [
                .product(name: "SextantTraces", package: "Sextant"),
                .product(name: "SextantCore", package: "Sextant"),
            ]
        ),

        // The activity engine's cost per fix with and without a listener:
        // `swift run -c release activity-figures`.
        .executableTarget(
            name: "activity-figures",
            dependencies: [
                .product(name: "SextantCore", package: "Sextant"),
                .product(name: "SextantProtocol", package: "Sextant"),
            ]
        ),

        // The attitude engine's cost per reading beside the orientation judge's:
        // `swift run -c release attitude-figures`.
        .executableTarget(
            name: "attitude-figures",
            dependencies: [
                .product(name: "SextantCore", package: "Sextant"),
                .product(name: "SextantProtocol", package: "Sextant"),
            ]
        ),
    ]
)
