import SextantProtocol
import Testing

@testable import SextantDBusFaces
@testable import SextantHub
@testable import SextantServer

/// Sextant's device orientations in iio-sensor-proxy's names (RULES' IIO note; docs/dbus.md).
@Suite("iio-sensor-proxy's orientation names")
struct SensorProxyOrientationTests {
    @Test("The four upright orientations: landscapeRight is left-up, landscapeLeft right-up", arguments: [
        (DeviceOrientation.portrait, "normal"), (.portraitUpsideDown, "bottom-up"), (.landscapeRight, "left-up"), (.landscapeLeft, "right-up"),
    ])
    func upright(orientation: DeviceOrientation, name: String) {
        var mapping = SensorProxyOrientation()
        #expect(mapping.name(for: orientation) == name)
    }

    @Test("Flat keeps the last upright name (iio-sensor-proxy has no flat state); undefined before any")
    func flat() {
        var mapping = SensorProxyOrientation()
        #expect(mapping.name(for: .unknown) == "undefined")
        #expect(mapping.name(for: .faceUp) == "undefined")
        #expect(mapping.name(for: .landscapeRight) == "left-up")
        #expect(mapping.name(for: .faceUp) == "left-up")
        #expect(mapping.name(for: .faceDown) == "left-up")
        #expect(mapping.name(for: .portraitUpsideDown) == "bottom-up")
        #expect(mapping.name(for: .faceDown) == "bottom-up")
        // Started from the judge's memory, as the face does when the daemon starts.
        var resumed = SensorProxyOrientation(lastUpright: .landscapeLeft)
        #expect(resumed.name(for: .faceUp) == "right-up")
    }
}
