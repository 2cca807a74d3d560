import SextantCore
import SextantHub

/// An app event gpsd's clients hear, as gpsd reports.
protocol GPSDEncodable: AppEventKind {
    func deliver(to connection: GPSDConnection)
}

extension LocationEvent: GPSDEncodable {
    func deliver(to connection: GPSDConnection) { connection.receive(fix) }
}

/// A fix under the Android profile: the fused provider's, as the rules gave it (AN35).
extension AndroidLocationEvent: GPSDEncodable {
    func deliver(to connection: GPSDConnection) { connection.receive(fix) }
}

extension LocationUnavailableEvent: GPSDEncodable {
    func deliver(to connection: GPSDConnection) { connection.sourceLost() }
}

/// A decision reached the session: a client that lost the right to positions hears "no fix".
extension AuthorizationEvent: GPSDEncodable {
    func deliver(to connection: GPSDConnection) { connection.rightsMayHaveChanged() }
}

extension ServicesEnabledEvent: GPSDEncodable {
    func deliver(to connection: GPSDConnection) { connection.rightsMayHaveChanged() }
}

/// A heading without `true`: the ATT report's magnetic members, to a client that may have
/// locations (the true heading is then not known yet: no fix).
extension HeadingEvent: GPSDEncodable {
    func deliver(to connection: GPSDConnection) { connection.receive(heading, withTrue: false) }
}

extension TrueHeadingEvent: GPSDEncodable {
    func deliver(to connection: GPSDConnection) { connection.receive(heading, withTrue: true) }
}
