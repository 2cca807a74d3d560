/// A Sextant trace with `count` location samples `step` seconds apart, walking north: what
/// the replay tests play, in process and through the real daemon.
public func syntheticTrace(count: Int, step: Double, start: String = "2026-03-01T08:00:00.000Z") -> String {
    var lines = ["{\"sextant\":\"trace\",\"version\":1,\"start\":\"\(start)\"}"]
    for i in 0..<count {
        let t = Double(i) * step
        let lat = 48.0 + Double(i) * 0.0001
        lines.append("{\"t\":\(t),\"location\":{\"lat\":\(lat),\"lon\":2.35,\"hAcc\":4,\"speed\":1.5,\"course\":0}}")
    }
    return lines.joined(separator: "\n") + "\n"
}
