import SextantCore

/// An app event gpsd's clients hear, as gpsd reports.
protocol GPSDEncodable: AppEventKind {
    func deliver(to connection: GPSDConnection)
}

extension LocationEvent: GPSDEncodable {
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
