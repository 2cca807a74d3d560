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
    let request: PromptsAnswer

    init(_ p: Params) throws(RPCError) { request = try PromptsAnswer(p) }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let (request, time) = (self.request, call.hub.now)
        // Hub+Store: in effect (and the app told) only once committed.
        return .later(
            try call.hub.commitDecision(from: .control) { (engine: inout AuthorizationEngine) throws(RPCError) in
                let id = try Self.promptID(request, in: engine)
                // I11: an app that declared NSLocationDefaultAccuracyReduced is answered approximate unless told.
                let approximate = engine.prompts.first { $0.id == id }.map(engine.defaultsToApproximate) ?? false
                return try Self.answer(&engine, id: id, choice: request.choice, precise: request.precise ?? !approximate, at: time)
            })
    }

    /// The prompt asked for: by its id, or the oldest open prompt of an app (and kind).
    private static func promptID(_ request: PromptsAnswer, in engine: AuthorizationEngine) throws(RPCError) -> String {
        if let id = request.id { return id }
        let app = request.app ?? ""
        guard let prompt = engine.prompts.first(where: { $0.app == app && (request.kind == nil || $0.kind == request.kind) }) else {
            throw RPCError(.noSuchPrompt, "no pending prompt of app \"\(app)\"\(request.kind.map { " of kind \($0.rawValue)" } ?? "")")
        }
        return prompt.id
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
        let given = answer.prompt.kind != .servicesOff ? answer.authorization?.result : nil
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
        return .later(try call.hub.commitDecision(from: .control) { engine in (policy.json, Self.apply(policy, to: &engine, at: time)) })
    }

    /// The policy on an engine, answering what is pending, oldest first.
    private static func apply(_ policy: PromptPolicy, to engine: inout AuthorizationEngine, at time: EngineTime) -> [AuthorizationEffect] {
        var effects = engine.setPolicy(policy)
        guard let policyChoice = policy.choice else { return effects }
        for prompt in engine.prompts {
            var choice = prompt.kind == .servicesOff ? PromptChoice.cancel : policyChoice
            if choice == .allowAlways, prompt.level != .always { choice = .allowWhileUsing }
            choice = AuthorizationEngine.policyChoice(policyChoice, for: prompt.kind) ?? choice
            // An Android dialog without the policy's button gets the nearest one (AN3).
            if let dialog = prompt.android, dialog.button(for: choice) == nil { choice = .whileUsing }
            if let answer = try? engine.answer(prompt.id, choice: choice, precise: policy.precise, at: time) {
                effects += answer.effects
            }
        }
        return effects
    }
}
