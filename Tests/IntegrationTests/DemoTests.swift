import Foundation
import SextantTestSupport
import Testing

@Suite("The demo")
struct DemoTests {
    @Test("sextantctl demo runs a private daemon and the sample app end to end and exits 0 by itself")
    func demoRunsToTheEnd() throws {
        let trace = Repository.root + "/Traces/demo-walk.jsonl"
        let result = try run([Binaries.sextantctl, "demo", "--trace", trace, "--speed", "50"])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        let out = result.stdout
        #expect(out.contains("permission: authorizedWhenInUse, full accuracy"), "\(out)")
        #expect(out.contains("replay finished"), "\(out)")
        #expect(out.contains("interface orientation: portrait → landscapeRight"), "\(out)")
        #expect(out.contains("authorization changed: denied"), "\(out)")
        #expect(out.contains("the daemon went away"), "the app sees the daemon stop: \(out)")
        #expect(out.components(separatedBy: "  app │ location ").count > 50, "the walk's fixes reach the app")
    }
}
