import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// Issue 24.5: a prompt policy given once without `--ephemeral` is stored and answers the
/// prompts of every later daemon on the state directory: each start says so in the log, with
/// how to reset it, and `status` says it is stored (sextantctl status prints it).
@Suite("A stored prompt policy is said", .serialized)
struct PromptPolicyNoticeTests {
    static let notice = "is stored in"

    @Test("issue 24.5: --prompt-policy once, then a daemon without it: both say at start-up that the policy is stored and how to reset it; status says stored")
    func storedPolicyIsSaid() throws {
        let daemon = try DaemonHarness(arguments: ["--prompt-policy", "allowAlways"])
        #expect(daemon.log().contains("prompt policy allowAlways, set by --prompt-policy, \(Self.notice) \(daemon.state)"), "\(daemon.log())")
        #expect(daemon.log().contains("sextantctl prompts policy ask"))
        #expect(daemon.terminate() == 0)

        let later = try DaemonHarness(state: daemon.state)
        #expect(later.log().contains("prompt policy allowAlways, kept from an earlier --prompt-policy or prompts.policy, \(Self.notice)"), "\(later.log())")
        let status = try later.control().call(Method.status)
        #expect(status["promptPolicy"]?["mode"] == "allowAlways" && status["promptPolicy"]?["stored"] == true, "\(status.serialized())")
        let text = try later.ctl(["status"]).stdout
        #expect(text.contains("Prompt policy:     allowAlways, stored: every later daemon on this state directory answers prompts so (reset: sextantctl prompts policy ask)"), "\(text)")

        #expect(try later.ctl(["prompts", "policy", "ask"]).status == 0)
        #expect(later.terminate() == 0)
        let reset = try DaemonHarness(state: daemon.state)
        #expect(!reset.log().contains(Self.notice), "ask is said by nobody: \(reset.log())")
        #expect(!(try reset.ctl(["status"]).stdout.contains("stored:")))
    }

    @Test("issue 24.5: with --ephemeral the policy lasts one run: no notice, status says not stored")
    func ephemeralPolicyIsNotStored() throws {
        let daemon = try DaemonHarness(arguments: ["--ephemeral", "--prompt-policy", "allowOnce"])
        #expect(!daemon.log().contains(Self.notice), "\(daemon.log())")
        let status = try daemon.control().call(Method.status)
        #expect(status["promptPolicy"]?["stored"] == false, "\(status.serialized())")
    }
}
