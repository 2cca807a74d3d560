import SextantCore
import SextantProtocol

/// One reading of a GnssLogger file, a line at a time (see `GnssLoggerReader` for the
/// format and the rules).
struct GnssLoggerPass {
    /// The row kinds GnssLogger writes that Sextant recognises but does not play yet
    /// (satellites, raw measurements, rotation vectors): counted by kind, where any other
    /// kind is counted as unknown.
    static let notReplayed: Set<String> = ["Raw", "Agc", "Nav", "GameRotationVector", "RotationVector"]
    static let unknownKind = "rows of an unknown kind"

    let path: String
    /// The provider whose fixes play (lower case); nil for all.
    let provider: String?
    /// Only the header and the providers of `Fix` rows are read (the pass that chooses
    /// the provider).
    let providersOnly: Bool
    /// The uncalibrated kinds that play (`UncalAccel`, `UncalMag`, `UncalGyro`): each only in
    /// a file without rows of its calibrated kind (`Accel`, `Mag`, `Gyro`), Android's own calibration of
    /// the same readings.
    let playsUncalibrated: Set<String>
    private var fixColumns: GnssLoggerFixColumns?
    /// The header's columns of each three-axis kind (`Accel`, `UncalAccel`, `Mag`, `UncalMag`,
    /// `Gyro`, `UncalGyro`).
    private var axesColumns: [String: GnssLoggerAxesColumns] = [:]
    private var orientationColumns: GnssLoggerOrientationColumns?
    private var statusColumns: GnssLoggerStatusColumns?
    /// The `Status` rows of the epoch being read.
    private var skyEpoch = GnssLoggerSkyEpoch()
    private var ordering = GnssLoggerOrdering()
    private(set) var skipped: [String: Int] = [:]
    /// The providers of the file's `Fix` rows, lower case (`other` for any but GPS, FLP, NLP).
    private(set) var providers: Set<String> = []
    private(set) var samples = 0

    /// The calibrated kinds (`Accel`, `Mag`, `Gyro`) the file has rows of (among those read).
    private(set) var calibratedKinds: Set<String> = []

    /// Each uncalibrated kind, by the calibrated kind that plays instead when the file has it.
    static let uncalibrated = ["Accel": "UncalAccel", "Mag": "UncalMag", "Gyro": "UncalGyro"]

    init(
        path: String, provider: String?, providersOnly: Bool = false, playsUncalibrated: Set<String> = ["UncalAccel", "UncalMag", "UncalGyro"]
    ) {
        self.path = path
        self.provider = provider
        self.providersOnly = providersOnly
        self.playsUncalibrated = playsUncalibrated
    }

    /// Reads one physical line (its `\r`, if any, is dropped).
    mutating func line(_ raw: UnsafeBufferPointer<UInt8>, number: Int, _ sink: (TraceSample) throws(TraceError) -> Void) throws(TraceError) {
        var bytes = raw
        if bytes.last == UInt8(ascii: "\r") { bytes = UnsafeBufferPointer(rebasing: bytes.dropLast()) }
        guard let first = bytes.first(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) else { return }
        if first == UInt8(ascii: "#") { return header(bytes) }
        // The kind alone first: most rows are of kinds that are only counted (`Raw`).
        let kindEnd = bytes.firstIndex(of: UInt8(ascii: ",")) ?? bytes.count
        let kind = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<kindEnd]), as: UTF8.self)
        try row(bytes, kind: kind, number: number, sink)
    }

    /// `body`'s answer, its problem as the error of line `number`.
    private func checked<T>(_ number: Int, _ body: () throws(GnssLoggerFieldProblem) -> T) throws(TraceError) -> T {
        do { return try body() } catch { throw TraceError(path: path, line: number, reason: error.reason) }
    }

    private mutating func row(_ bytes: UnsafeBufferPointer<UInt8>, kind: String, number: Int, _ sink: (TraceSample) throws(TraceError) -> Void) throws(TraceError) {
        switch kind {
        case "Fix":
            let row = GnssLoggerFields(bytes)
            guard let fixColumns else { throw TraceError(path: path, line: number, reason: Self.noHeader("Fix")) }
            let rowProvider = fixColumns.provider(of: row)
            providers.insert(GnssProvider.automaticOrder.contains(rowProvider) ? rowProvider : "other")
            guard !providersOnly else { return }
            guard provider == nil || rowProvider == provider else {
                skipped["Fix rows of another provider", default: 0] += 1
                return
            }
            let fix = try checked(number) { () throws(GnssLoggerFieldProblem) in try fixColumns.fix(row) }
            try add(.location(fix), time: fix.time, number: number, sink)
        case "Accel", "UncalAccel", "Mag", "UncalMag", "Gyro", "UncalGyro":
            if Self.uncalibrated[kind] != nil { calibratedKinds.insert(kind) }
            guard !providersOnly else { return }
            guard Self.uncalibrated[kind] != nil || playsUncalibrated.contains(kind) else {
                skipped["\(kind) (\(kind.dropFirst("Uncal".count)) played instead)", default: 0] += 1
                return
            }
            let row = GnssLoggerFields(bytes)
            guard let columns = axesColumns[kind] else { throw TraceError(path: path, line: number, reason: Self.noHeader(kind)) }
            let (time, reading) = try checked(number) { () throws(GnssLoggerFieldProblem) in try columns.reading(row) }
            try add(.reading(reading), time: time, number: number, sink)
        case "Status":
            guard !providersOnly else { return }
            try status(GnssLoggerFields(bytes), number: number, sink)
        case "OrientationDeg":
            guard !providersOnly else { return }
            let row = GnssLoggerFields(bytes)
            guard let orientationColumns else { throw TraceError(path: path, line: number, reason: Self.noHeader(kind)) }
            let (time, heading) = try checked(number) { () throws(GnssLoggerFieldProblem) in try orientationColumns.reading(row) }
            try add(.compass(heading), time: time, number: number, sink)
        default:
            guard !providersOnly else { return }
            skipped[Self.notReplayed.contains(kind) ? "\(kind) (not replayed yet)" : Self.unknownKind, default: 0] += 1
        }
    }

    private mutating func add(_ value: SampleValue, time: Timestamp, number: Int, _ sink: (TraceSample) throws(TraceError) -> Void) throws(TraceError) {
        samples += 1
        try ordering.add(value, time: time, line: number, path: path, sink)
    }

    /// A `Status` row: one signal of an epoch, the epoch a sky once its last signal (or a
    /// row of another time) is read.
    private mutating func status(_ row: GnssLoggerFields, number: Int, _ sink: (TraceSample) throws(TraceError) -> Void) throws(TraceError) {
        guard let statusColumns else { throw TraceError(path: path, line: number, reason: Self.noHeader("Status")) }
        let (satellite, time, last) = try checked(number) { () throws(GnssLoggerFieldProblem) in try statusColumns.satellite(row) }
        if let held = skyEpoch.time, held != time { try flushSky(sink) }
        skyEpoch.add(satellite, time: time, line: number)
        if last { try flushSky(sink) }
    }

    private mutating func flushSky(_ sink: (TraceSample) throws(TraceError) -> Void) throws(TraceError) {
        guard let (sky, time, line) = skyEpoch.take() else { return }
        try add(.sky(sky), time: time, number: line, sink)
    }

    private static func noHeader(_ kind: String) -> String {
        "\("AEIOU".contains(kind.prefix(1)) ? "an" : "a") \(kind) row, but no header line names \(kind)'s columns above it (a GnssLogger file starts with comment lines such as \"# Fix,Provider,LatitudeDegrees,…\")"
    }

    /// A comment line: `# Kind,Column,Column,…` names a row kind's columns; any other
    /// (the version, blank comments) says nothing a trace needs.
    private mutating func header(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let hash = bytes.firstIndex(of: UInt8(ascii: "#")) else { return }
        let fields = GnssLoggerFields(UnsafeBufferPointer(rebasing: bytes[(hash + 1)...]))
        let kind = fields.text(0)
        guard fields.count > 1, !kind.isEmpty, kind.utf8.allSatisfy({ $0 < 0x80 && (Character(Unicode.Scalar($0)).isLetter || Character(Unicode.Scalar($0)).isNumber) }) else { return }
        let columns = GnssLoggerColumns(fields)
        switch kind {
        case "Fix": fixColumns = GnssLoggerFixColumns(columns)
        case "Accel", "UncalAccel": axesColumns[kind] = .accel(columns, uncalibrated: kind == "UncalAccel")
        case "Mag", "UncalMag": axesColumns[kind] = .mag(columns, uncalibrated: kind == "UncalMag")
        case "Gyro", "UncalGyro": axesColumns[kind] = .gyro(columns, uncalibrated: kind == "UncalGyro")
        case "OrientationDeg": orientationColumns = GnssLoggerOrientationColumns(columns)
        case "Status": statusColumns = GnssLoggerStatusColumns(columns)
        default: break
        }
    }

    /// Hands out the samples still held; answers the trace's start. A file that gave no
    /// sample is refused (at its first line, as it is the whole file that is wrong): with
    /// the providers it has when fixes of others were left out.
    mutating func finish(_ sink: (TraceSample) throws(TraceError) -> Void) throws(TraceError) -> Timestamp {
        try flushSky(sink)
        try ordering.finish(path: path, sink)
        skipped.merge(ordering.late.counts) { $0 + $1 }
        guard let start = ordering.start else {
            let reason =
                providers.isEmpty
                ? "no Fix, Accel, UncalAccel, Mag, UncalMag, OrientationDeg or Status row: not a GnssLogger recording Sextant can play"
                : "no Fix row of the \(provider?.uppercased() ?? "") provider (the file's fixes are from \(providers.sorted().map { $0.uppercased() }.joined(separator: ", ")); choose with --gnss-provider)"
            throw TraceError(path: path, line: 1, reason: reason)
        }
        return start
    }
}
