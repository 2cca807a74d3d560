import SextantCore
import SextantProtocol
import SextantTraces

/// A loaded trace is within the bounds sextant-trace(5) documents: offsets in order and at
/// most `Trace.maximumOffset`, every fix valid, every sensor reading within its kind's bounds, every satellite valid, every activity as it reads back. Anything else
/// is a crash for the fuzzer to keep.
public func checkTrace(_ trace: Trace) {
    var last: Int64 = 0
    for sample in trace.samples {
        guard sample.offset >= last, sample.offset <= Trace.maximumOffset else { fatalError("offset \(sample.offset) after \(last)") }
        last = sample.offset
        switch sample.value {
        case .location(let fix):
            if let problem = fix.problem { fatalError("a bad fix loaded: \(problem)") }
        case .reading(let reading):
            guard let kind = SensorKinds.all[reading.kind] else { fatalError("a reading of an unknown kind loaded: \(reading.kind)") }
            if let problem = kind.problem(reading) { fatalError("a bad reading loaded: \(problem)") }
        case .record(let record):
            checkRecord(record)
        case .gps: break
        }
    }
    _ = TraceSummary(trace).end.rfc3339
}

/// A record of a kind Sextant knows, within its bounds: a sky's satellites valid and not
/// too many; an activity that reads back as itself from what it writes.
func checkRecord(_ record: SampleRecord) {
    if let sky = record.value(as: SkyView.self) {
        guard sky.satellites.count <= SkyView.maximumSatellites else { fatalError("a sky of \(sky.satellites.count) satellites loaded") }
        if let problem = sky.satellites.lazy.compactMap(\.problem).first { fatalError("a bad satellite loaded: \(problem)") }
    } else if let activity = record.value(as: RecordedActivity.self) {
        guard (try? RecordedActivity.read(recordBody: activity.recordBody).get()) == activity else {
            fatalError("an activity record does not read back as itself: \(activity)")
        }
    } else {
        fatalError("a record of an unknown kind loaded: \(record.kind.name)")
    }
}
