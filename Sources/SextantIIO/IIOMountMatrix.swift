import SextantCore

/// How an IIO accelerometer's own axes sit in the device: a 3×3 matrix that turns a
/// reading in the sensor's frame into the device's frame (RULES "Device orientation").
///
/// The text form is the kernel's (`mount_matrix`, `in_accel_mount_matrix`) and udev's
/// (`ACCEL_MOUNT_MATRIX`, set from hwdb): three rows separated by `;`, three numbers a row
/// separated by `,`, for example `"0, 1, 0; -1, 0, 0; 0, 0, 1"`. Row i gives the device
/// axis i as a combination of the sensor's axes: `device_i = Σ_j m[i][j] × sensor_j`.
public struct IIOMountMatrix: Sendable, Equatable, CustomStringConvertible {
    /// Row-major: `rows[i][j]` weighs sensor axis j in device axis i.
    public let rows: [[Double]]

    public static let identity = IIOMountMatrix(uncheckedRows: [[1, 0, 0], [0, 1, 0], [0, 0, 1]])

    private init(uncheckedRows rows: [[Double]]) { self.rows = rows }

    /// The matrix, or nil unless there are three rows of three finite numbers and no row is
    /// all zeros (such a row would lose an axis: sensor stacks reject it as a broken quirk).
    public init?(rows: [[Double]]) {
        guard rows.count == 3, rows.allSatisfy({ $0.count == 3 && $0.allSatisfy(\.isFinite) }) else { return nil }
        guard !rows.contains(where: { $0.allSatisfy { $0 == 0 } }) else { return nil }
        self.rows = rows
    }

    /// Parses the text form. Blanks around numbers and a trailing newline (sysfs) are
    /// allowed; anything else that is not nine numbers in three rows is refused.
    public init?(parsing text: String) {
        let rowTexts = text.split(separator: ";", omittingEmptySubsequences: false)
        var rows: [[Double]] = []
        for rowText in rowTexts {
            var row: [Double] = []
            for cell in rowText.split(separator: ",", omittingEmptySubsequences: false) {
                guard let value = Double(cell.strippingBlanks()) else { return nil }
                row.append(value)
            }
            rows.append(row)
        }
        self.init(rows: rows)
    }

    /// `M × v`.
    public func applied(to v: (x: Double, y: Double, z: Double)) -> (x: Double, y: Double, z: Double) {
        func row(_ i: Int) -> Double { rows[i][0] * v.x + rows[i][1] * v.y + rows[i][2] * v.z }
        return (row(0), row(1), row(2))
    }

    /// The first usable matrix of: the udev `property` (hwdb quirks), then each sysfs
    /// attribute in order; else the identity. Answers where it came from (the property's or
    /// attribute's name, or `identity`). One that does not parse is logged through `warn`
    /// and skipped, as iio-sensor-proxy does.
    static func find(
        _ device: IIODeviceInfo, property: String?, attributes: [String], warn: (String) -> Void
    ) throws(SysfsReadError) -> (IIOMountMatrix, String) {
        var candidates: [(String, String)] = []
        if let property, let text = device.properties[property] { candidates.append((property, text)) }
        for attribute in attributes {
            if let text = try SysfsAttribute.optionalText(at: device.path(attribute)) { candidates.append((attribute, text)) }
        }
        for (origin, text) in candidates {
            if let matrix = IIOMountMatrix(parsing: text) { return (matrix, origin) }
            warn("\(device.sysname): ignoring \(origin) \"\(text)\": not a mount matrix")
        }
        return (.identity, "identity")
    }

    public var description: String {
        rows.map { $0.map { "\($0)" }.joined(separator: ", ") }.joined(separator: "; ")
    }
}

extension StringProtocol {
    /// The text without spaces, tabs and line ends at either end (sysfs values end in a newline).
    func strippingBlanks() -> SubSequence {
        var result = self[...]
        while let first = result.first, first.isWhitespace { result = result.dropFirst() }
        while let last = result.last, last.isWhitespace { result = result.dropLast() }
        return result
    }
}
