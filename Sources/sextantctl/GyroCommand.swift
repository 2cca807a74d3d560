import ArgumentParser
import SextantProtocol

/// `sextantctl gyro X Y Z|release`: a rotation rate held by hand (issue 40.1).
struct Gyro: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gyro",
        abstract: "Hold a gyroscope reading (rad/s about the device's axes: x right, y up the screen, z out of it).",
        discussion: """
            Counter-clockwise is positive, seen from the axis's end: a phone turned on a table to its left at \
            a quarter turn a second reads 0 0 1.5708. The rate holds over a replay and a live sensor until \
            `gyro release` gives the gyroscope back to them (RULES O4a).
            """)
    @OptionGroup var common: CommonOptions
    @Argument(parsing: .allUnrecognized, help: "x, y and z in rad/s, or the single word release.") var values: [String]

    func validate() throws { _ = try HeldVectorWords(values) }

    func run() throws {
        try reporting {
            let held = try HeldVectorWords(values)
            common.output(try common.call(DeviceSet(rotationRate: held.vector))) { _ in
                held.describe(released: "Gyroscope released", holding: "rotation rate", unit: "rad/s")
            }
        }
    }
}
