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
        id = try p.requiredString("id")
        guard let choice = try p.name("choice", as: PromptChoice.self) else { throw .invalidParams("\"choice\" is required") }
        self.choice = choice
        precise = try p.bool("precise") ?? true
    }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let hub = call.hub
        let answer: AuthorizationEngine.AnswerResult
        do {
            answer = try hub.authorization.answer(id, choice: choice, precise: precise, at: hub.now)
        } catch {
            switch error {
            case .noSuchPrompt(let id): throw RPCError(.noSuchPrompt, "no pending prompt \"\(id)\"")
            case .invalidChoice(let why): throw .invalidParams(why)
            }
        }
        var members: [String: JSONValue] = [
            "id": .string(answer.prompt.id), "app": .string(answer.prompt.app), "kind": .string(answer.prompt.kind.rawValue),
            "choice": .string(choice.rawValue),
        ]
        if let auth = answer.authorization, answer.prompt.kind == .authorization {
            members["status"] = .string(auth.status.rawValue)
            members["accuracy"] = .string(auth.accuracy.rawValue)
        }
        let result = JSONValue.object(members)
        return .later(hub.perform(answer.effects).map { result })
    }
}

/// `prompts.policy`: answer every prompt at once with a choice, or `ask` (L12). A policy
/// also answers what is already pending, oldest first.
struct PromptsPolicyMethod: RPCMethod {
    static let name = Method.promptsPolicy
    let policy: PromptPolicy

    init(_ p: Params) throws(RPCError) {
        let mode = try p.requiredString("mode")
        guard let policy = PromptPolicy(mode: mode, precise: try p.bool("precise") ?? true) else {
            throw .invalidParams("\"mode\" must be one of: \(PromptPolicy.validModes.joined(separator: ", "))")
        }
        self.policy = policy
    }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let hub = call.hub
        var effects = hub.authorization.setPolicy(policy)
        if let policyChoice = policy.choice {
            for prompt in hub.authorization.prompts {
                var choice = prompt.kind == .servicesOff ? PromptChoice.cancel : policyChoice
                if choice == .allowAlways, prompt.level != .always { choice = .allowWhileUsing }
                if let answer = try? hub.authorization.answer(prompt.id, choice: choice, precise: policy.precise, at: hub.now) {
                    effects += answer.effects
                }
            }
        }
        let policy = self.policy
        return .later(hub.perform(effects).map { policy.json })
    }
}
