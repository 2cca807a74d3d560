import SextantCore
import SextantSources

/// The live IIO sensors as a source of the hub.
extension Hub {
    /// Starts the IIO source (`configuration` nil: `--no-iio`, the source is off). Its
    /// samples and its list of sensors in use hop onto the hub's loop; `status` shows the
    /// list as the `iio` source's state.
    func startIIOSource(_ configuration: IIOSourceConfiguration?) -> IIOSensorSource? {
        guard let configuration else {
            eventLoop.execute { self.sourceStates["iio"] = "off" }
            return nil
        }
        eventLoop.execute { self.sourceStates["iio"] = "starting" }
        let source = IIOSensorSource(configuration: configuration, logger: logger) { [self] event in
            eventLoop.execute {
                switch event {
                case .sample(let sample): self.ingest(sample, from: "iio")
                case .sensors(let summary): self.sourceStates["iio"] = summary
                }
            }
        }
        source.start()
        return source
    }
}
