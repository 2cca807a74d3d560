/// The sources that feed the hub, by the names `status` shows them under.
enum SourceName: String, Sendable {
    /// Values set by hand through the control socket (`device.set`).
    case manual
    case replay
    /// A live gpsd, through libgps.
    case gpsd
    /// The machine's Linux IIO sensors, through libudev.
    case iio
}
