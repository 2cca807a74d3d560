/// Whose `Fix` rows a GnssLogger file plays. Android records a fix from each location
/// provider it was asked for: `GPS` (the receiver alone), `FLP` (the fused provider: GNSS,
/// Wi-Fi, cells and sensors) and `NLP` (the network provider), interleaved, so a trace
/// takes one of them, or all when asked (`any`).
public enum GnssProvider: String, Sendable, Equatable, CaseIterable {
    /// GPS when the file has a GPS fix, else FLP, else NLP.
    case automatic = "auto"
    case gps
    case flp
    case nlp
    /// Every fix, whatever its provider.
    case any

    /// The choice spelt as `--gnss-provider` takes it (any case); nil for another word.
    public init?(option: String) {
        self.init(rawValue: option.lowercased())
    }

    /// The providers a choice plays, given those the file has fixes of (lower case);
    /// nil for every provider.
    func chosen(among present: Set<String>) -> String? {
        switch self {
        case .gps, .flp, .nlp: return rawValue
        case .any: return nil
        case .automatic: return Self.automaticOrder.first { present.contains($0) } ?? Self.automaticOrder[0]
        }
    }

    /// The order `automatic` tries the providers in.
    static let automaticOrder = ["gps", "flp", "nlp"]
}
