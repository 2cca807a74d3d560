import SextantHub

/// An app event GeoClue's clients hear, in GeoClue's terms (signals and properties).
protocol GeoClueEncodable: AppEventKind {
    func deliver(to client: GeoClueClient)
}

extension LocationEvent: GeoClueEncodable {
    func deliver(to client: GeoClueClient) { client.receive(fix) }
}

/// A fix under the Android profile: the fused provider's, as the rules gave it (AN35).
extension AndroidLocationEvent: GeoClueEncodable {
    func deliver(to client: GeoClueClient) { client.receive(fix) }
}

/// A decision reached the session: the client stops or starts as the rules now say.
extension AuthorizationEvent: GeoClueEncodable {
    func deliver(to client: GeoClueClient) { client.rightsMayHaveChanged() }
}

extension ServicesEnabledEvent: GeoClueEncodable {
    func deliver(to client: GeoClueClient) { client.rightsMayHaveChanged() }
}

extension GeoClueFace: Face {
    func observe(_ change: any DeviceChange) {
        if let switched = change as? ServicesEnabledChanged { servicesSwitched(switched.enabled) }
    }
}
