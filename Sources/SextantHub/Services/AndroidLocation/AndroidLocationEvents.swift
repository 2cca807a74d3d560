import SextantCore
import SextantProtocol

/// One fix a fused request delivered (`onLocationChanged(Location)`), coarse when the
/// grant is; the faces (gpsd, GeoClue) speak it as they speak the iOS stream's fixes.
package struct AndroidLocationEvent: AppEventKind {
    package let fix: LocationFix
    let accuracy: LocationAccuracy
    package static var topic: AppTopic { AndroidLocationService.topic }
    package static var isLocationDerived: Bool { true }
    package var outboundKind: OutboundKind { .location }
    package var method: String { Event.location }
    package var params: JSONValue { fix.json(accuracy: accuracy) }
}

/// Fixes held for a batch, delivered together oldest first (`onLocationChanged(List)`, AN30).
struct AndroidLocationsEvent: AppEventKind {
    let fixes: [LocationFix]
    let accuracy: LocationAccuracy
    static var topic: AppTopic { AndroidLocationService.topic }
    static var isLocationDerived: Bool { true }
    var outboundKind: OutboundKind { .location }
    var method: String { Event.locations }
    var params: JSONValue { ["locations": .array(fixes.map { $0.json(accuracy: accuracy) })] }
}
