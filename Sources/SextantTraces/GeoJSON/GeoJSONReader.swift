import SextantCore
import SextantProtocol

/// Reads GeoJSON (RFC 7946) as a trace of locations: what `GeoJSONWriter` writes, and the
/// plain forms other tools write.
///
/// **Which positions.** A FeatureCollection, a single Feature or a bare geometry. Its
/// `LineString`s and `MultiLineString`s are the path (each line a list, as a GPX track
/// segment) when their times are given (`properties.coordTimes`, or
/// `properties.coordinateProperties.times`, one RFC 3339 time a position, as togeojson
/// and GPS Visualizer write them); else its `Point`s are, when they have times
/// (`properties.time`: `GeoJSONWriter` writes a time-less LineString of the path and a
/// Point a fix); else the lines, else the points, without times.
///
/// **Times and values.** As `GPXReader`'s rules: positions with times keep them; without
/// times, the path is walked at `TraceLoadOptions.gpxSpeed` (and `gpxInterval`) from
/// 2000-01-01; a list with some times and not others is refused. A position is
/// `[lon, lat]` or `[lon, lat, alt]`; a Point's properties `hAcc`, `vAcc`, `speed` and
/// `course` are kept, and speed and course otherwise come from the legs.
///
/// JSON has no lines to name: errors give line 1 (the line of a syntax error) and say
/// which feature.
enum GeoJSONReader {
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, path: String, options: TraceLoadOptions) throws(TraceError) -> Trace {
        let root: JSONValue
        do {
            root = try JSONValue.parse(bytes)
        } catch {
            let line = 1 + bytes.prefix(error.offset).reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            throw TraceError(path: path, line: line, reason: "not JSON: \(error.reason)")
        }
        var found = GeoJSONPaths(path: path)
        try found.add(root, feature: nil)
        // A line with some times and not others is refused by the walk, not read without them.
        let lines = found.lines.filter { !$0.isEmpty }
        let timed = lines.contains { $0.contains { $0.time != nil } }
        guard let trace = try GPXReader.walkDocument(timedLines: timed ? lines : [], lines: lines, points: found.points, path: path, options: options)
        else {
            throw TraceError(path: path, line: 1, reason: "no positions: GeoJSON with a LineString, MultiLineString or Point was expected")
        }
        return trace
    }
}

extension TraceFormat {
    /// Not by its first bytes: a JSON object is what a Sextant JSONL trace starts with too.
    public static let geojson = TraceFormat(WholeDocumentFormat(name: "geojson", extensions: ["geojson"], reader: GeoJSONReader.read))
}

/// The lines and points of a GeoJSON document, as lists of points.
struct GeoJSONPaths {
    let path: String
    var lines: [[GPXPoint]] = []
    var points: [GPXPoint] = []

    /// `feature`: which feature (1-based) the value is, for errors.
    mutating func add(_ value: JSONValue, feature: Int?) throws(TraceError) {
        let type = value["type"]?.stringValue ?? ""
        switch type {
        case "FeatureCollection":
            guard let features = value["features"]?.arrayValue else { throw problem("a FeatureCollection without a features array", feature) }
            for (k, item) in features.enumerated() { try add(item, feature: k + 1) }
        case "Feature":
            guard let geometry = value["geometry"], !geometry.isNull else { return }
            try add(geometry: geometry, properties: value["properties"]?.objectValue ?? [:], feature: feature)
        default:
            try add(geometry: value, properties: [:], feature: feature)
        }
    }

    private mutating func add(geometry: JSONValue, properties: [String: JSONValue], feature: Int?) throws(TraceError) {
        let coordinates = geometry["coordinates"]
        switch geometry["type"]?.stringValue ?? "" {
        case "Point":
            guard let coordinates else { throw problem("a Point without coordinates", feature) }
            var point = try position(coordinates, feature)
            point.time = try time(properties["time"], feature)
            point.horizontalAccuracy = try number(properties, LocationKey.horizontalAccuracy, feature)
            point.verticalAccuracy = try number(properties, LocationKey.verticalAccuracy, feature)
            point.speed = try number(properties, LocationKey.speed, feature)
            point.course = try number(properties, LocationKey.course, feature)
            if let reason = LocationFix.problem(
                latitude: point.latitude, longitude: point.longitude, horizontalAccuracy: point.horizontalAccuracy,
                verticalAccuracy: point.verticalAccuracy, speed: point.speed, course: point.course)
            {
                throw problem("a Point's properties: \(reason)", feature)
            }
            points.append(point)
        case "LineString":
            try addLine(coordinates, times: Self.times(properties), feature)
        case "MultiLineString":
            let times = Self.times(properties)?.arrayValue
            for (k, line) in (coordinates?.arrayValue ?? []).enumerated() { try addLine(line, times: times.flatMap { k < $0.count ? $0[k] : nil }, feature) }
        case "GeometryCollection":
            for item in geometry["geometries"]?.arrayValue ?? [] { try add(geometry: item, properties: properties, feature: feature) }
        case let other:
            // Polygons and the like hold no path; an object that is no GeoJSON at all is refused.
            if other.isEmpty { throw problem("not GeoJSON: an object without a \"type\"", feature) }
        }
    }

    /// Property `key` of a Point, a number when present (`null` is absent).
    private func number(_ properties: [String: JSONValue], _ key: String, _ feature: Int?) throws(TraceError) -> Double? {
        guard let value = properties[key], !value.isNull else { return nil }
        guard let number = value.doubleValue else { throw problem("a Point's properties: \(key) is not a number: \(value.serialized().prefix(40))", feature) }
        return number
    }

    /// The per-position times of a line, where tools put them.
    private static func times(_ properties: [String: JSONValue]) -> JSONValue? {
        properties["coordTimes"] ?? properties["coordinateProperties"]?["times"]
    }

    private mutating func addLine(_ coordinates: JSONValue?, times: JSONValue?, _ feature: Int?) throws(TraceError) {
        guard let items = coordinates?.arrayValue else { throw problem("a LineString without coordinates", feature) }
        let times = times?.arrayValue
        if let times, times.count != items.count { throw problem("\(times.count) times for \(items.count) positions", feature) }
        var line: [GPXPoint] = []
        for (k, item) in items.enumerated() {
            var point = try position(item, feature)
            point.time = try time(times?[k], feature)
            line.append(point)
        }
        lines.append(line)
    }

    private func position(_ value: JSONValue, _ feature: Int?) throws(TraceError) -> GPXPoint {
        guard let items = value.arrayValue, items.count >= 2, let lon = items[0].doubleValue, let lat = items[1].doubleValue else {
            throw problem("a position that is not [lon, lat] or [lon, lat, alt]: \(value.serialized().prefix(60))", feature)
        }
        if let reason = LocationFix.problem(latitude: lat, longitude: lon, altitude: items.count > 2 ? items[2].doubleValue : nil) {
            throw problem("a position out of range (\(reason))", feature)
        }
        return GPXPoint(latitude: lat, longitude: lon, elevation: items.count > 2 ? items[2].doubleValue : nil, line: 1)
    }

    private func time(_ value: JSONValue?, _ feature: Int?) throws(TraceError) -> Timestamp? {
        guard let value, !value.isNull else { return nil }
        guard let text = value.stringValue, let time = Timestamp(rfc3339: text) else {
            throw problem("a time that is not an RFC 3339 text: \(value.serialized().prefix(60))", feature)
        }
        return time
    }

    private func problem(_ reason: String, _ feature: Int?) -> TraceError {
        TraceError(path: path, line: 1, reason: feature.map { "feature \($0): \(reason)" } ?? reason)
    }
}
