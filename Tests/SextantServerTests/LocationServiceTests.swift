import Foundation
import SextantCore
import SextantProtocol
import Testing

@testable import SextantHub

/// Location as a service (issue 37): its methods are the location service's, served by one
/// registration, and which rules decide is one choice of provider — the iOS stream unless
/// the platform has its own. The wire is the same either way (the hub's suites).
@Suite("Location as a service", .timeLimit(.minutes(1)))
struct LocationServiceTests {
    @Test("L1 L7: location.start, .stop and .once come from the location service's registration, not the hub's own table")
    func methodsAreTheServices() {
        let own = Set(MethodTable.appSocket([]).names)
        let location = [Method.locationStart, Method.locationStop, Method.locationOnce]
        #expect(location.allSatisfy { !own.contains($0) }, "the hub's own app table names no location method")
        let served = Set(MethodTable.appSocket(LocationService.appMethods).names)
        #expect(location.allSatisfy { served.contains($0) })
        #expect(ServiceRegistry.all.filter { $0 == LocationService.self }.count == 1, "registered once")
    }

    @Test("AN35: the iOS stream is the default provider; Android's fused provider replaces it", arguments: [false, true])
    func providerByPlatform(android: Bool) async throws {
        let hub = try InProcessHub { if android { $0.platform = .android(api: 34) } }
        let (provider, answersOnce) = try await hub.hub.submit { hub in
            (String(describing: type(of: hub.services.locationProvider)), hub.services.fixes.answersOnce)
        }.get()
        #expect(provider == (android ? "AndroidLocationService" : "LocationService"))
        #expect(answersOnce == !android, "the fan-out answers location.once only for the iOS stream")
    }

    @Test("The hub's files name no registered service and none of the services' methods")
    func hubNamesNoService() throws {
        let names = ServiceRegistry.all.map { String(describing: $0) }
            + ServiceRegistry.all.flatMap { $0.appMethods + $0.controlMethods }.map { String(describing: $0) }
        for (file, text) in try Self.hubFiles() {
            for name in names {
                #expect(!text.contains(name), "Hub/\(file) names \(name)")
            }
        }
    }

    /// What the hub's code may say of location: authorization's words (L1, L7–L10), the
    /// sample it routes and the output's kinds, and what a face drops on a revoke (L9).
    static let hubLocationWords: Set<String> = [
        "location",  // the routed sample's case (`Sample.location`), the output's kind
        "locationDecision",  // the output's kind of a decision about locations
        "LocationFix",  // the hub's primary sample, through the GNSS profile
        "LocationAccuracy", "locationAccuracy",  // the engine's answer (L8, L10), cached per session
        "LocationFudger",  // the reduced-accuracy grid the store keeps (L10)
        "checkLocationAccess",  // L7 before L1, L8
        "mayReceiveLocations",  // L8, L9
        "locationServicesEnabled",  // L1
        "isLocationDerived",  // R10, L9: every event's gate
        "discardQueuedLocations",  // L9: the output's
    ]

    /// The location service's delivery, which lives in its folder (`Services/Location/`):
    /// none may be named in Hub/, in code or in a comment.
    static let deliveryNames = [
        "LocationFanOut", "locationFanOut", "LocationState", "LocationStream", "OnceWaiters", "onceWaiters",
        "locationCursor", "settleOwedLocation", "deliverLocation", "publishLocation", "fanOutLocation",
        "batchingLocations", "settleLocationFanOut", "locationHearers", "startsHearingLocations",
        "listedAsLocationHearer", "cancelOnceWaiters", "failOnceWaiters", "LocationEvent",
        "LocationUnavailableEvent", "tellLocationUnavailable", "locationOnceTimeout", "locationsPerTurn",
        "LocationDelivery", "LocationSubscription", "LocationSettings", "LocationLine", "lastFix", "admitLocations",
        "locationProvider", "locationUnavailable",
    ]

    @Test("L9 L10: of location, Hub/ names authorization's words and the sample it routes, never the service's delivery")
    func hubNamesNoLocationDelivery() throws {
        for (file, text) in try Self.hubFiles() {
            for name in Self.deliveryNames {
                let word = try Regex("\\b\(name)\\b")
                #expect(!text.contains(word), "Hub/\(file) names \(name)")
            }
            let others = Self.locationWords(inCodeOf: text).subtracting(Self.hubLocationWords)
            #expect(others.isEmpty, "Hub/\(file) names \(others.sorted())")
        }
    }

    /// The identifiers of `text`'s code (comments and string literals left out) that say "location".
    static func locationWords(inCodeOf text: String) -> Set<String> {
        var words = Set<String>()
        for line in text.split(separator: "\n") {
            let withoutStrings = line.replacing(#/"(\\.|[^"\\])*"/#, with: "\"\"")
            let code = withoutStrings.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false)[0]
            for match in code.matches(of: #/[A-Za-z_][A-Za-z_0-9]*/#) where match.output.lowercased().contains("location") {
                words.insert(String(match.output))
            }
        }
        return words
    }

    /// Each Swift file of `Sources/SextantHub/Hub/`, by name, with its text.
    static func hubFiles() throws -> [(String, String)] {
        let hubFolder = #filePath.components(separatedBy: "/Tests/")[0] + "/Sources/SextantHub/Hub"
        let files = try FileManager.default.contentsOfDirectory(atPath: hubFolder).filter { $0.hasSuffix(".swift") }.sorted()
        #expect(files.count > 10)
        return try files.map { ($0, try String(contentsOfFile: hubFolder + "/" + $0, encoding: .utf8)) }
    }
}
