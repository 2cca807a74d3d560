import ArgumentParser
import SextantClient
import SextantProtocol

// The ambient light and proximity sensors by hand: a value holds like a sensor at rest,
// sampled at the manual source's rate, until it is changed or released (RULES O4a, E1).

struct Light: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "light",
        abstract: "Hold the ambient light sensor at a level in lux (RULES E1).",
        discussion: """
            An office reads about 300 lux, a room at night 10, overcast daylight 1000, sunlight \
            100000. The level holds over a replay and a live sensor until `light release`.
            """)
    @OptionGroup var common: CommonOptions
    @Argument(help: "The illuminance in lux (0 to 1000000), or the word release.") var level: String

    func validate() throws {
        guard level == "release" || Double(level) != nil else { throw ValidationError("give the illuminance in lux, or release") }
    }

    func run() throws {
        try reporting {
            guard let lux = Double(level) else {
                common.output(try common.call(DeviceSet(light: .released))) { _ in "Light sensor released" }
                return
            }
            common.output(try common.call(DeviceSet(light: .value(lux)))) { _ in "Light at \(Text.plain(.double(lux))) lux" }
        }
    }
}

struct Proximity: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "proximity",
        abstract: "Hold the proximity sensor near (something at the screen: an ear, a pocket) or far (RULES E1).",
        discussion: "The state holds over a replay and a live sensor until `proximity release`.")
    @OptionGroup var common: CommonOptions
    @Argument(help: "near, far, or release.") var state: ProximityWord

    func run() throws {
        try reporting {
            let held: DeviceSet.Held<Bool> =
                switch state {
                case .near: .value(true)
                case .far: .value(false)
                case .release: .released
                }
            common.output(try common.call(DeviceSet(proximity: held))) { _ in
                state == .release ? "Proximity sensor released" : "Proximity \(state.rawValue)"
            }
        }
    }
}

struct Pressure: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pressure",
        abstract: "Hold the barometer at a pressure in hPa (RULES B2).",
        discussion: "Sea level is about 1013 hPa; 1000 m up about 899. The altimeter follows it until `pressure release`.")
    @OptionGroup var common: CommonOptions
    @Argument(help: "The pressure in hPa (0 to 1200), or the word release.") var level: String

    func validate() throws {
        guard level == "release" || Double(level) != nil else { throw ValidationError("give the pressure in hPa, or release") }
    }

    func run() throws {
        try reporting {
            guard let hPa = Double(level) else {
                common.output(try common.call(DeviceSet(pressure: .released))) { _ in "Barometer released" }
                return
            }
            common.output(try common.call(DeviceSet(pressure: .value(hPa)))) { _ in "Pressure at \(Text.plain(.double(hPa))) hPa" }
        }
    }
}

enum ProximityWord: String, ExpressibleByArgument, CaseIterable {
    case near, far, release
}

extension Text {
    /// `status`'s and `watch`'s light: `320 lux`.
    static func light(_ light: JSONValue) -> String { "\(Text.plain(light["lux"])) lux" }

    /// `status`'s light, proximity, pressure and altimeter lines, those it has.
    static func environment(_ s: JSONValue) -> [String] {
        var lines: [String] = []
        if let light = s["light"], !light.isNull { lines.append("Light:             " + Text.light(light)) }
        if let proximity = s["proximity"], !proximity.isNull { lines.append("Proximity:         " + Text.proximity(proximity)) }
        if let pressure = s["pressure"], !pressure.isNull { lines.append("Pressure:          \(Text.plain(pressure["hPa"])) hPa") }
        if let altimeter = s["altimeter"], !altimeter.isNull {
            lines.append("Altimeter:         \(Text.plain(altimeter["pressure"])) kPa, altitude \(Text.plain(altimeter["altitude"])) m")
        }
        return lines
    }

    /// `near` or `far`.
    static func proximity(_ proximity: JSONValue) -> String { proximity["near"]?.boolValue == true ? "near" : "far" }
}
