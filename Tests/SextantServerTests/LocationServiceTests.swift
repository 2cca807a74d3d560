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
            (String(describing: type(of: hub.services.locationProvider)), hub.services.fanOutAnswersOnce)
        }.get()
        #expect(provider == (android ? "AndroidLocationService" : "LocationService"))
        #expect(answersOnce == !android, "the fan-out answers location.once only for the iOS stream")
    }

    @Test("The hub's files name no registered service and none of the services' methods")
    func hubNamesNoService() throws {
        let hubFolder = #filePath.components(separatedBy: "/Tests/")[0] + "/Sources/SextantHub/Hub"
        let names = ServiceRegistry.all.map { String(describing: $0) }
            + ServiceRegistry.all.flatMap { $0.appMethods + $0.controlMethods }.map { String(describing: $0) }
        let files = try FileManager.default.contentsOfDirectory(atPath: hubFolder).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 10)
        for file in files {
            let text = try String(contentsOfFile: hubFolder + "/" + file, encoding: .utf8)
            for name in names {
                #expect(!text.contains(name), "Hub/\(file) names \(name)")
            }
        }
    }
}
