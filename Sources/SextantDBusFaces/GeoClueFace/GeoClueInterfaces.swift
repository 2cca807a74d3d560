import SextantDBus

/// GeoClue 2.6's three interfaces as tables (its `interface/*.xml`, as installed in
/// /usr/share/dbus-1/interfaces): names, signatures and access as the real service shows
/// them in introspection, with Sextant's handlers.
enum GeoClueInterfaces {
    static let managerName = "org.freedesktop.GeoClue2.Manager"
    static let clientName = "org.freedesktop.GeoClue2.Client"
    static let locationName = "org.freedesktop.GeoClue2.Location"

    static func manager(_ face: GeoClueFace) -> DBusInterface {
        DBusInterface(
            managerName,
            methods: [
                DBusMethod("GetClient", outputs: [DBusArgument("client", "o")]) { [unowned face] in face.getClient($0, reuse: true) },
                DBusMethod("CreateClient", outputs: [DBusArgument("client", "o")]) { [unowned face] in face.getClient($0, reuse: false) },
                DBusMethod("DeleteClient", inputs: [DBusArgument("client", "o")]) { [unowned face] in face.deleteClient($0) },
                DBusMethod("AddAgent", inputs: [DBusArgument("id", "s")]) { [unowned face] in face.addAgent($0) },
            ],
            properties: [DBusProperty("InUse", "b"), DBusProperty("AvailableAccuracyLevel", "u")])
    }

    /// A client's interface. Its owner alone may call it or set its properties (GeoClue's
    /// "Access denied" otherwise); the setters hand the value to the client on the loop.
    static func client(_ face: GeoClueFace, owner: String) -> DBusInterface {
        let setter = { (apply: @escaping @Sendable (GeoClueClient, DBusValue) -> Void) in
            { @Sendable [unowned face] (sender: String, path: String, value: DBusValue) throws(DBusError) in
                guard sender == owner else { throw DBusError.accessDenied("Access denied") }
                face.handle.eventLoop.execute {
                    guard let number = GeoClueObjectPath.clientNumber(path), let client = face.clients[number]?.client else { return }
                    apply(client, value)
                }
            }
        }
        return DBusInterface(
            clientName,
            methods: [
                DBusMethod("Start") { [unowned face] call in face.withOwnClient(call) { face.start($0, call) } },
                DBusMethod("Stop") { [unowned face] call in
                    face.withOwnClient(call) { client in
                        face.stop(client, byRules: false)
                        call.reply([])
                    }
                },
            ],
            properties: [
                DBusProperty("Location", "o"),
                DBusProperty("DistanceThreshold", "u", setter: setter { $0.thresholds.distance = $1.uint32Value ?? 0 }),
                DBusProperty("TimeThreshold", "u", setter: setter { $0.thresholds.time = $1.uint32Value ?? 0 }),
                DBusProperty("DesktopId", "s", setter: setter { $0.desktopID = $1.stringValue ?? "" }),
                DBusProperty("RequestedAccuracyLevel", "u", setter: setter { $0.requestedLevel = $1.uint32Value ?? 0 }),
                DBusProperty("Active", "b"),
            ],
            signals: [DBusSignal("LocationUpdated", arguments: [DBusArgument("old", "o"), DBusArgument("new", "o")])])
    }

    /// A location's interface: read-only values. Their changes (a location below a
    /// threshold updates the current object in place) go to the owner alone, so the
    /// table announces none itself.
    static let location = DBusInterface(
        locationName,
        properties: [
            DBusProperty("Latitude", "d"), DBusProperty("Longitude", "d"),
            DBusProperty("Accuracy", "d"), DBusProperty("Altitude", "d"),
            DBusProperty("Speed", "d"), DBusProperty("Heading", "d"),
            DBusProperty("Description", "s"), DBusProperty("Timestamp", "(tt)"),
        ])

    /// The values of `location` as the Location interface's properties.
    static func properties(_ values: GeoClueLocationValues) -> [(String, DBusValue)] {
        [
            ("Latitude", .double(values.latitude)), ("Longitude", .double(values.longitude)),
            ("Accuracy", .double(values.accuracy)), ("Altitude", .double(values.altitude)),
            ("Speed", .double(values.speed)), ("Heading", .double(values.heading)),
            ("Description", .string(values.description)),
            ("Timestamp", .structure([.uint64(values.timestampSeconds), .uint64(values.timestampMicroseconds)])),
        ]
    }
}
