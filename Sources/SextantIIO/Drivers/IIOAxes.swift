import Logging

/// The three axes of one IIO channel type (`in_<type>_{x,y,z}_raw`, each with its scale
/// and offset) and the mount matrix that turns them into the device's axes: what an
/// accelerometer and a magnetometer are read from.
public struct IIOAxes: Sendable, Equatable {
    public var x: IIOChannel
    public var y: IIOChannel
    public var z: IIOChannel
    public var mountMatrix: IIOMountMatrix
    /// Where the matrix came from, for the log: the udev property's or attribute's name, or
    /// `identity`.
    public var mountMatrixOrigin: String

    public init(x: IIOChannel, y: IIOChannel, z: IIOChannel, mountMatrix: IIOMountMatrix, mountMatrixOrigin: String) {
        (self.x, self.y, self.z) = (x, y, z)
        (self.mountMatrix, self.mountMatrixOrigin) = (mountMatrix, mountMatrixOrigin)
    }

    /// The axes of channel type `type` (`accel`, `magn`) when the device has all three raw
    /// files, else nil. Each axis's scale is the first of `scales(axis)` the device has
    /// (else 1), its offset its own, else the type's (else 0). The matrix is the first that
    /// parses of: udev `matrixProperty` (hwdb quirks), sysfs `mount_matrix`,
    /// `in_<type>_mount_matrix`; else the identity.
    static func probe(
        _ device: IIODeviceInfo, type: String, scales: (String) -> [String], matrixProperty: String?, warn: (String) -> Void
    ) throws(SysfsReadError) -> IIOAxes? {
        let axes = ["x", "y", "z"]
        guard axes.allSatisfy({ SysfsAttribute.exists(device.path("in_\(type)_\($0)_raw")) }) else { return nil }
        var channels: [IIOChannel] = []
        for axis in axes {
            let scale = try IIOProbe.firstNumber(device, scales(axis)) ?? 1
            let offset = try IIOProbe.firstNumber(device, ["in_\(type)_\(axis)_offset", "in_\(type)_offset"]) ?? 0
            channels.append(IIOChannel(rawPath: device.path("in_\(type)_\(axis)_raw"), scale: scale, offset: offset))
        }
        let (matrix, origin) = try IIOMountMatrix.find(
            device, property: matrixProperty, attributes: ["mount_matrix", "in_\(type)_mount_matrix"], warn: warn)
        return IIOAxes(x: channels[0], y: channels[1], z: channels[2], mountMatrix: matrix, mountMatrixOrigin: origin)
    }

    /// The three values after offset and scale, in the sensor's axes, every file read afresh.
    func read() throws(SysfsReadError) -> (x: Double, y: Double, z: Double) {
        (x: try x.read(), y: try y.read(), z: try z.read())
    }

    /// What the log says of them: the scales (in `unit`, when given) and the matrix.
    func logMetadata(unit: String?) -> Logger.Metadata {
        let scales = [x.scale, y.scale, z.scale].map { "\($0)" }.joined(separator: ",")
        return ["scale": "\(scales)\(unit.map { " (\($0))" } ?? "")", "mount matrix": "\(mountMatrix) (\(mountMatrixOrigin))"]
    }
}
