import SextantCore
import Testing

@Suite("Light and proximity: their kinds, the on-change stream and iio-sensor-proxy's near threshold")
struct EnvironmentSensorTests {
    @Test("The kinds are registered under their trace names and topics, and check their bounds")
    func kinds() {
        #expect(SensorKinds.all.kind(named: "light") === SensorKind.light)
        #expect(SensorKinds.all.kind(named: "prox") === SensorKind.proximity)
        #expect(SensorKind.light.topic == .light && SensorKind.proximity.topic == .proximity)
        #expect(SensorKind.light.problem(SensorReading(lux: 320)) == nil)
        #expect(SensorKind.light.problem(SensorReading(lux: -1)) == "light.lux must be within 0...1000000 lux")
        #expect(SensorKind.light.problem(SensorReading(lux: .infinity)) != nil)
        #expect(SensorKind.proximity.problem(SensorReading(.proximity, 2)) == "prox.near must be 1 (near) or 0 (far)")
        #expect(SensorReading(lux: 12).lux == 12 && SensorReading(lux: 12).isNear == nil)
        #expect(SensorReading(near: true).isNear == true && SensorReading(near: false).isNear == false)
        #expect(SensorReading(near: true).lux == nil)
    }

    @Test("E2: an on-change stream sends the first value, then each that differs; a reset sends the next whatever it is")
    func onChange() {
        var stream = OnChangeStream<Double>()
        #expect([100, 100, 250, 250, 0, 0].map { stream.admits($0) } == [true, false, true, false, true, false])
        stream.reset()
        #expect(stream.admits(0) && stream.lastSent == 0)
    }

    /// iio-sensor-proxy's drv-iio-poll-proximity: the threshold is 0.9 × the near level
    /// after a raw level above the near level, 1.1 × it otherwise (the previous raw level
    /// decides, not the previous answer).
    @Test("E4: near and far from raw levels as iio-sensor-proxy decides them, its margin set by the previous level")
    func threshold() {
        var threshold = ProximityThreshold(nearLevel: 100)
        let levels: [Double] = [50, 105, 95, 95, 111, 91, 89]
        #expect(levels.map { threshold.isNear($0) } == [false, false, true, false, true, true, false])
        #expect(threshold.lastLevel == 89)
    }
}
