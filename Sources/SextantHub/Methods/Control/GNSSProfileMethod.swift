import SextantCore
import SextantProtocol

/// `gnss.profile`: the GNSS profile every source's fixes pass through (RULES N1–N5), set
/// or `off`; every source starts afresh with it. Answers the profile in force.
struct GNSSProfileMethod: RPCMethod {
    static let name = Method.gnssProfile
    let spec: GNSSProfileSpec?
    let seed: UInt64?

    init(_ p: Params) throws(RPCError) {
        let request = try GNSSProfileSet(p)
        seed = request.seed
        if request.profile == GNSSProfileSet.off {
            spec = nil
            return
        }
        switch GNSSProfileSpec.parse(request.profile) {
        case .success(let spec): self.spec = spec
        case .failure(let error): throw .invalidParams("\"profile\": \(error.description), or off")
        }
    }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let gnss = call.hub.gnss
        gnss.set(spec, seed: seed ?? gnss.seed)
        call.hub.logger.info("GNSS profile set", metadata: ["profile": "\(spec?.description ?? "off")", "seed": "\(gnss.seed)"])
        return .result(gnss.state.json)
    }
}
