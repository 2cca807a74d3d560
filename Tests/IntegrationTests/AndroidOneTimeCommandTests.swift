import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// `sextantctl permissions set APP --grant coarse,fine --one-time` against a real sextantd
/// under `--platform android` (docs/platforms.md AN38): the app holds "Only this time"
/// without its dialog, and AN11's 5 s end it once no session is open.
@Suite("sextantctl permissions set --one-time (AN38)", .serialized)
struct AndroidOneTimeCommandTests {
    @Test("AN38, AN11: --one-time puts the app in Only this time; 5 s of device time with no session end it")
    func oneTimeFromTheCommandLine() throws {
        let daemon = try DaemonHarness(arguments: ["--platform", "android"])
        let set = try daemon.ctl(["permissions", "set", "com.example.onetime", "--grant", "coarse,fine", "--one-time", "--json"])
        #expect(set.status == 0, "\(set.stdout)\(set.stderr)")
        #expect(try JSONValue.parse(set.stdout)["android"]?["oneTime"]?["fine"] == "granted", "\(set.stdout)")
        let advanced = try daemon.ctl(["time", "advance", "6s"])
        #expect(advanced.status == 0, "\(advanced.stderr)")
        let explained = try daemon.ctl(["permissions", "explain", "com.example.onetime", "--json"])
        #expect(try JSONValue.parse(explained.stdout)["facets"]?["oneTime"] == .null, "\(explained.stdout)")
        let refused = try daemon.ctl(["permissions", "set", "com.example.onetime", "--grant", "coarse,background", "--one-time"])
        #expect(refused.status != 0 && refused.stderr.contains("oneTime"), "\(refused.stderr)")
    }
}
