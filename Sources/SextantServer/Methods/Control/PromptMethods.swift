import SextantCore
import SextantProtocol

/// `prompts.list`: open prompts and alerts, oldest first (RULES L12).
struct PromptsListMethod: RPCMethod {
    static let name = Method.promptsList
    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply { .result(.array(call.hub.authorization.prompts.map(\.json))) }
}

/// `prompts.answer`: the user's choice on a prompt (L5) or an alert (L7).
struct PromptsAnswerMethod: RPCMethod {
    static let name = Method.promptsAnswer
    let id: String
    let choice: PromptChoice
    let precise: Bool

    init(_ p: Params) throws(RPCError) {
        let request = try PromptsAnswer(p)
        (id, choice, precise) = (request.id, request.choice, request.precise ?? true)
    }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let (id, choice, precise, time) = (self.id, self.choice, self.precise, call.hub.now)
        // Hub+Store: in effect (and the app told) only once committed.
        return .later(
            try call.hub.commitDecision { (engine: inout AuthorizationEngine) throws(RPCError) in
                try Self.answer(&engine, id: id, choice: choice, precise: precise, at: time)
            })
    }

    /// The answer on an engine: the hub's, or a copy being staged (Hub+Store).
    private static func answer(
        _ engine: inout AuthorizationEngine, id: String, choice: PromptChoice, precise: Bool, at time: EngineTime
    ) throws(RPCError) -> (JSONValue, [AuthorizationEffect]) {
        let answer: AuthorizationEngine.AnswerResult
        do {
            answer = try engine.answer(id, choice: choice, precise: precise, at: time)
        } catch {
            switch error {
            case .noSuchPrompt(let id): throw RPCError(.noSuchPrompt, "no pending prompt \"\(id)\"")
            case .invalidChoice(let why): throw .invalidParams(why)
            }
        }
        let given = answer.prompt.kind == .authorization ? answer.authorization?.result : nil
        let result = PromptAnswerResult(id: answer.prompt.id, app: answer.prompt.app, kind: answer.prompt.kind, choice: choice, authorization: given)
        return (result.json, answer.effects)
    }
}

/// `prompts.policy`: answer every prompt at once with a choice, or `ask` (L12). A policy
/// also answers what is already pending, oldest first.
struct PromptsPolicyMethod: RPCMethod {
    static let name = Method.promptsPolicy
    let policy: PromptPolicy

    init(_ p: Params) throws(RPCError) {
        let request = try PromptsPolicy(p)
        guard let policy = PromptPolicy(mode: request.mode, precise: request.precise ?? true) else {
            throw .invalidParams("\"mode\" must be one of: \(PromptPolicy.validModes.joined(separator: ", "))")
        }
        self.policy = policy
    }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let (policy, time) = (self.policy, call.hub.now)
        // Hub+Store: in effect only once committed.
        return .later(try call.hub.commitDecision { engine in (policy.json, Self.apply(policy, to: &engine, at: time)) })
    }

    /// The policy on an engine, answering what is pending, oldest first.
    private static func apply(_ policy: PromptPolicy, to engine: inout AuthorizationEngine, at time: EngineTime) -> [AuthorizationEffect] {
        var effects = engine.setPolicy(policy)
        guard let policyChoice = policy.choice else { return effects }
        for prompt in engine.prompts {
            var choice = prompt.kind == .servicesOff ? PromptChoice.cancel : policyChoice
            if choice == .allowAlways, prompt.level != .always { choice = .allowWhileUsing }
            if let answer = try? engine.answer(prompt.id, choice: choice, precise: policy.precise, at: time) {
                effects += answer.effects
            }
        }
        return effects
    }
}
