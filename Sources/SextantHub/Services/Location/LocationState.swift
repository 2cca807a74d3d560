import SextantCore

/// Where the device is, as the hub last heard it: the latest fix, the source it came from,
/// and the GPS source's loss until the next fix. Changed only by what the hub ingests
/// (`Hub+Samples`), through the operations below.
final class LocationState {
    private(set) var lastFix: LocationFix?
    /// Which source the latest fix came from (the gpsd face names it as the device).
    private(set) var lastFixSource: SourceName?
    /// Why the GPS source is gone, from its loss until the next fix: each streaming app
    /// hears it once per loss, including one that starts streaming during the loss.
    private(set) var loss: String?

    /// A fix from `source` is being ingested.
    func fixComing(from source: SourceName) { lastFixSource = source }

    /// The fix is the latest; any loss is over.
    func fixArrived(_ fix: LocationFix) {
        lastFix = fix
        loss = nil
    }

    /// The GPS source was lost for `reason`, until the next fix.
    func lost(_ reason: String) { loss = reason }
}
