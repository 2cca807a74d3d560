// Temporary until the NMEA and GPX readers land.
import SextantCore
public enum NMEAReader {
    public static func read(_ text: String, path: String) throws(TraceError) -> Trace {
        throw TraceError(path: path, line: 1, reason: "NMEA traces are not supported yet")
    }
}
public enum GPXReader {
    public static func read(_ text: String, path: String, speed: Double) throws(TraceError) -> Trace {
        throw TraceError(path: path, line: 1, reason: "GPX traces are not supported yet")
    }
}
