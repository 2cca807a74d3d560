import ArgumentParser
import SextantClient
import SextantProtocol

// Setting the device's motion sensors by hand. Every value set here holds, like a sensor
// at rest sampled at its own rate, until it is changed: the daemon's judge decides the
// orientation from it, exactly as from a real accelerometer (RULES O4a).

struct Rotate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate",
        abstract: "Hold the device in an orientation: the daemon feeds the matching gravity to its judge.",
        discussion: """
            ORIENTATION is portrait, portraitUpsideDown, landscapeLeft, landscapeRight, faceUp or \
            faceDown. The device orientation event follows once the judge decides (40 ms of settling \
            for an upright orientation, 500 ms for faceUp and faceDown). The orientation holds over a \
            replay and a live sensor; `sextantctl accel release` gives the accelerometer back to them.
            """)
    @OptionGroup var common: CommonOptions
    @Argument(help: "The device orientation to hold.") var orientation: DeviceOrientation
    @Flag(help: "Return once the judge has decided the device is in ORIENTATION (exit 75 if not within --timeout).") var wait = false
    @Option(help: ArgumentHelp("With --wait: seconds to wait (default 10).", valueName: "S")) var timeout: Double = 10

    func validate() throws {
        guard timeout > 0, timeout <= 86_400 else { throw ValidationError("--timeout must be above 0 and at most 86400 seconds") }
    }

    func run() throws {
        try reporting {
            let target = orientation.rawValue
            guard wait else {
                common.output(try common.call(DeviceSet(orientation: orientation))) { _ in "Holding the device \(target)" }
                return
            }
            let connection = try common.control()
            // Subscribe before asking, so that the judge's decision cannot slip by; if the
            // device is already there, no event will come and status says so.
            _ = try connection.call(WatchRequest(topics: [Event.deviceOrientation]))
            _ = try connection.call(DeviceSet(orientation: orientation))
            if try connection.call(StatusRequest())["deviceOrientation"]?.stringValue != target {
                _ = try connection.nextEvent(timeout: timeout, description: "the device to turn \(target)") {
                    $0.method == Event.deviceOrientation && $0.params["orientation"]?.stringValue == target
                }
            }
            common.output(["orientation": .string(target)] as JSONValue) { _ in "Device \(target)" }
        }
    }
}

extension DeviceOrientation: ExpressibleByArgument {
    public static var allValueStrings: [String] { allCases.filter { $0 != .unknown }.map(\.rawValue) }
}

struct Accel: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accel",
        abstract: "Hold an accelerometer reading (m/s², device frame: x right, y up the screen, z out of it).",
        discussion: "Upright in portrait at rest is 0 9.81 0; face up on a table is 0 0 9.81. `accel release` ends the hold.")
    @OptionGroup var common: CommonOptions
    // Negative readings look like options to the parser: take every unrecognised word.
    @Argument(parsing: .allUnrecognized, help: "x, y and z in m/s², or the single word release.") var values: [String]

    func validate() throws { _ = try HeldVectorWords(values) }

    func run() throws {
        try reporting {
            let held = try HeldVectorWords(values)
            common.output(try common.call(DeviceSet(acceleration: held.vector))) { _ in
                held.describe(released: "Accelerometer released", holding: "acceleration", unit: "m/s²")
            }
        }
    }
}

/// What `accel` and `magnet` take: three numbers X Y Z, or the single word release.
struct HeldVectorWords {
    let vector: DeviceSet.HeldVector

    init(_ words: [String]) throws {
        let numbers = words.compactMap(Double.init)
        if words == ["release"] {
            vector = .released
        } else if words.count == 3, numbers.count == 3 {
            vector = .reading(x: numbers[0], y: numbers[1], z: numbers[2])
        } else {
            throw ValidationError("give three numbers X Y Z, or release")
        }
    }

    func describe(released: String, holding noun: String, unit: String) -> String {
        guard case .reading(let x, let y, let z) = vector else { return released }
        return "Holding \(noun) (\([x, y, z].map { Text.plain(.double($0)) }.joined(separator: ", "))) \(unit)"
    }
}

struct Hinge: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hinge",
        abstract: "Hold the hinge angle of a foldable, in degrees: 0 closed, 180 flat (RULES P1–P4).",
        discussion: "The angle holds over a replay and a live sensor until `hinge release` gives the hinge back to them (RULES O4a).")
    @OptionGroup var common: CommonOptions
    @Argument(help: "The hinge angle, 0 to 180, or the word release.") var angle: String

    func validate() throws {
        guard angle == "release" || Double(angle) != nil else { throw ValidationError("give the hinge angle in degrees, or release") }
    }

    func run() throws {
        try reporting {
            guard let degrees = Double(angle) else {
                common.output(try common.call(DeviceSet(releasesHinge: true))) { _ in "Hinge released" }
                return
            }
            common.output(try common.call(DeviceSet(hingeAngle: degrees))) { _ in "Hinge at \(Text.plain(.double(degrees)))°" }
        }
    }
}

struct Magnet: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "magnet",
        abstract: "Hold a magnetometer reading (µT, device frame: x right, y up the screen, z out of it).",
        discussion: """
            Lying flat with its top to magnetic north, a phone in Paris reads about 0 21 -42. The field \
            holds over a replay and a live sensor, and takes the place of a heading set by hand; \
            `magnet release` gives the magnetometer back to them (RULES O4a).
            """)
    @OptionGroup var common: CommonOptions
    @Argument(parsing: .allUnrecognized, help: "x, y and z in µT, or the single word release.") var values: [String]

    func validate() throws { _ = try HeldVectorWords(values) }

    func run() throws {
        try reporting {
            let held = try HeldVectorWords(values)
            common.output(try common.call(DeviceSet(magneticField: held.vector))) { _ in
                held.describe(released: "Magnetometer released", holding: "magnetic field", unit: "µT")
            }
        }
    }
}

struct HeadingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "heading", abstract: "Hold the compass at a heading, or give it back (RULES H1, O4a).",
        subcommands: [Set.self, Release.self])

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Hold the heading the top of the device points to, in degrees clockwise from north.",
            discussion: """
                Magnetic unless --true. A true heading becomes magnetic through the declination at the \
                latest fix (WMM2025), so it is heard once a location is known. The heading holds over a \
                replay and a live sensor (their magnetometer and compass both), and takes the place of a \
                field held with `magnet`; `heading release` gives the compass back (RULES O4a).
                """)
        @OptionGroup var common: CommonOptions
        @Argument(help: "Degrees, 0 to 360.") var degrees: Double
        @Flag(name: .customLong("true"), help: "DEG is from true (geographic) north.") var fromTrueNorth = false
        // `.unconditional`: a negative value is read as the value, and refused by name, not
        // taken for an option.
        @Option(parsing: .unconditional, help: ArgumentHelp("Degrees either side, as Core Location's headingAccuracy.", valueName: "A"))
        var accuracy: Double?

        func validate() throws { try Validated.accuracy(accuracy, unit: "degrees") }

        func run() throws {
            try reporting {
                let held = DeviceSet.HeldHeading.reading(
                    magnetic: fromTrueNorth ? nil : degrees, trueHeading: fromTrueNorth ? degrees : nil, accuracy: accuracy)
                common.output(try common.call(DeviceSet(heading: held))) { _ in
                    "Holding heading \(Text.plain(.double(degrees)))° \(fromTrueNorth ? "true" : "magnetic")"
                        + (accuracy.map { " (±\(Text.plain(.double($0)))°)" } ?? "")
                }
            }
        }
    }

    struct Release: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "release", abstract: "Give the compass back to the replay and the live sensors.")
        @OptionGroup var common: CommonOptions

        func run() throws {
            try reporting { common.output(try common.call(DeviceSet(heading: .released))) { _ in "Heading released" } }
        }
    }
}

struct RotationLock: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotation-lock", abstract: "Turn the system rotation lock on or off (RULES O9).")
    @OptionGroup var common: CommonOptions
    @Argument(help: "on or off") var state: OnOff

    func run() throws {
        try reporting {
            common.output(try common.call(DeviceRotationLock(enabled: state == .on))) {
                "Rotation lock: \($0.enabled ? "on" : "off")"
            }
        }
    }
}
