import SextantProtocol

/// The steps the real-daemon tests took with sextantctl, as the control calls sextantctl
/// makes for them: what a test moved from Tests/IntegrationTests into this process needs to
/// set its scene in one line.
extension InProcessHub {
    /// An app session that said hello as `id`, and hello's answer. `subscribe` are methods
    /// called after hello (`orientation.start`, ...).
    func app(
        _ id: String, state: String = "foreground", orientations: [String]? = nil, subscribe: [String] = []
    ) async throws -> (TestClient, JSONValue) {
        let app = try await connect(.app)
        var hello: [String: JSONValue] = ["app": .string(id), "state": .string(state)]
        if let orientations { hello["orientations"] = .array(orientations.map { .string($0) }) }
        let answer = try await app.call(Method.hello, .object(hello))
        for method in subscribe { _ = try await app.call(method) }
        return (app, answer)
    }

    /// A control connection, and an app session granted by it (`permissions grant`) before
    /// its hello.
    func grantedApp(
        _ id: String, always: Bool = false, approximate: Bool = false, state: String = "foreground", subscribe: [String] = []
    ) async throws -> (control: TestClient, app: TestClient, hello: JSONValue) {
        let control = try await connect(.control)
        try await control.grant(id, always: always, approximate: approximate)
        let (app, hello) = try await app(id, state: state, subscribe: subscribe)
        return (control, app, hello)
    }
}

extension TestClient {
    /// `permissions grant APP [--always] [--approximate]`.
    func grant(_ app: String, always: Bool = false, approximate: Bool = false) async throws {
        _ = try await call(
            Method.permissionsSet,
            [
                "app": .string(app), "status": always ? "authorizedAlways" : "authorizedWhenInUse",
                "accuracy": approximate ? "reduced" : "full",
            ])
    }

    /// `location set LAT LON [...]`: a fix held by hand; `extra` adds `alt`, `speed`, `course`.
    func setLocation(_ lat: Double, _ lon: Double, _ extra: [String: JSONValue] = [:]) async throws {
        var location: [String: JSONValue] = ["lat": .double(lat), "lon": .double(lon)]
        location.merge(extra) { _, given in given }
        _ = try await call(Method.deviceSet, ["location": .object(location)])
    }

    /// `apps foreground|background APP`.
    func setState(_ app: String, _ state: String) async throws {
        _ = try await call(Method.appsUpdate, ["app": .string(app), "state": .string(state)])
    }

    /// `rotate ORIENTATION`: gravity held for the judge, which decides as the hub's time moves.
    func rotate(_ orientation: String) async throws {
        _ = try await call(Method.deviceSet, ["orientation": .string(orientation)])
    }

    /// Every notification the hub wrote to this app session before a round trip on it (an
    /// `authorization.get`): a connection's writes leave in order, and a fan-out's flush
    /// is queued on the hub's loop before the request, so none can still be on its way.
    func settled() async throws -> [(method: String, params: JSONValue)] {
        _ = try await request(Method.authorizationGet)
        return try await drainEvents()
    }

    /// The params of the notifications named `method` in ``settled()``, the others dropped.
    func drained(_ method: String) async throws -> [JSONValue] {
        try await settled().filter { $0.method == method }.map(\.params)
    }
}
