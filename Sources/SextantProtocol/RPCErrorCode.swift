/// Error codes: JSON-RPC's own and Sextant's (PROTOCOL.md "Errors"), each with its name
/// and what it means, as data: the Python client's constants are rendered from this table
/// (`Tests/SextantProtocolTests/PythonConstantsTests.swift` fails when they differ).
public enum RPCErrorCode: Int, Sendable, CaseIterable {
    case parseError = -32700
    case invalidRequest = -32600
    case methodNotFound = -32601
    case invalidParams = -32602
    case internalError = -32603
    /// JSON-RPC's range for server errors: a socket already serves as many clients as it may.
    case serverBusy = -32000
    case notAuthorized = 1001
    case servicesDisabled = 1002
    case noSession = 1003
    case unknownApp = 1004
    case noSuchPrompt = 1005
    case sourceUnavailable = 1006
    case forbidden = 1007
    case invalidTrace = 1008
    /// `hello` with an app id bound to another uid (docs/security.md).
    case wrongUser = 1009
    /// A session has as many requests waiting (authorization.request, location.once) as it
    /// may: the daemon holds a bounded number per session.
    case tooManyRequests = 1010
    /// `region.monitor` past the app's limit of regions (RULES R8).
    case tooManyRegions = 1011
    /// `region.monitor` while region monitoring is unavailable to the app: reduced accuracy (RULES R10).
    case regionMonitoringUnavailable = 1012
    /// An app's request that would store something for a new app id of a uid that holds as
    /// many app ids with something stored as it may (docs/security.md "App ids and uids").
    case tooManyApps = 1013
    /// `authorization.requestTemporaryFullAccuracy` refused as iOS refuses it
    /// (`kCLErrorPromptDeclined`): the purpose key was not declared at `hello`, the accuracy
    /// is already full, or the app is in the background (docs/platforms.md I10).
    case promptDeclined = 1014

    public var name: String {
        switch self {
        case .parseError: return "parseError"
        case .invalidRequest: return "invalidRequest"
        case .methodNotFound: return "methodNotFound"
        case .invalidParams: return "invalidParams"
        case .internalError: return "internalError"
        case .serverBusy: return "serverBusy"
        case .notAuthorized: return "notAuthorized"
        case .servicesDisabled: return "servicesDisabled"
        case .noSession: return "noSession"
        case .unknownApp: return "unknownApp"
        case .noSuchPrompt: return "noSuchPrompt"
        case .sourceUnavailable: return "sourceUnavailable"
        case .forbidden: return "forbidden"
        case .invalidTrace: return "invalidTrace"
        case .wrongUser: return "wrongUser"
        case .tooManyRequests: return "tooManyRequests"
        case .tooManyRegions: return "tooManyRegions"
        case .regionMonitoringUnavailable: return "regionMonitoringUnavailable"
        case .tooManyApps: return "tooManyApps"
        case .promptDeclined: return "promptDeclined"
        }
    }

    /// When the daemon answers with it (sextant-protocol(7), ERRORS).
    public var meaning: String {
        switch self {
        case .parseError: return "the line is not JSON"
        case .invalidRequest: return "not a JSON-RPC 2.0 request; a second hello; a line over 64 KiB"
        case .methodNotFound: return "no such method on this socket"
        case .invalidParams: return "a parameter is missing, of the wrong type or out of range"
        case .internalError: return "the daemon failed, e.g. the permission store could not be written"
        case .serverBusy: return "the socket already serves as many clients as it may"
        case .notAuthorized: return "location asked for without authorization (or, when in use, from the background)"
        case .servicesDisabled: return "Location Services is off"
        case .noSession: return "an app method before hello"
        case .unknownApp: return "apps.update names no live session"
        case .noSuchPrompt: return "answering a prompt that is not pending"
        case .sourceUnavailable: return "a trace file missing or unreadable; location.once without a fix in time"
        case .forbidden: return "control socket used by another uid"
        case .invalidTrace: return "a trace has a bad line"
        case .wrongUser: return "hello with an app id bound to another uid"
        case .tooManyRequests: return "a session has as many requests waiting as it may"
        case .tooManyRegions:
            return "region.monitor past the app's limit of regions (20 unless sextantd --max-regions) or its uid's (1000 unless --max-regions-per-uid)"
        case .regionMonitoringUnavailable: return "region.monitor with reduced accuracy: region monitoring needs full accuracy"
        case .tooManyApps:
            return "a new app id's first decision or region past its uid's limit of app ids with something stored (256 unless sextantd --max-apps-per-uid)"
        case .promptDeclined:
            return "iOS: authorization.requestTemporaryFullAccuracy with a purpose key not declared at hello, accuracy already full, or from the background"
        }
    }
}
