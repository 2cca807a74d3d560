import Foundation
import SextantCore
import SextantProtocol
import SextantTraces

/// What a page's request does: a control method goes to the daemon as it is; `panel.*`
/// are the panel's own (traces of its folder, a drawn route); `watch` is refused, since the
/// panel watches for every page.
struct PanelMethods: Sendable {
    let daemon: DaemonSupervisor
    let tracesDirectory: String

    /// The fixes of `panel.trace`'s answer, at most: enough for a line on a map.
    static let maximumFixes = 5000

    func answer(_ request: PageRequest) async -> PageAnswer {
        let result: Result<JSONValue, RPCError>
        switch request.method {
        case "watch":
            result = .failure(RPCError(code: -32601, message: "watch is the panel's own: the page gets every event in {\"events\": [...]} frames"))
        case "panel.traces": result = traces()
        case "panel.trace": result = trace(request.params)
        case "panel.route": result = await route(request.params)
        case let name where name.hasPrefix("panel."):
            result = .failure(RPCError(code: -32601, message: "unknown panel method \(name): panel.traces, panel.trace, panel.route"))
        default:
            result = await daemon.call(request.method, request.params)
        }
        return PageAnswer(id: request.id, result: result)
    }

    /// The trace files of the folder: every regular file a trace format claims.
    func traces() -> Result<JSONValue, RPCError> {
        let folder = URL(fileURLWithPath: tracesDirectory)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
            return .failure(RPCError(code: 1006, message: "\(tracesDirectory): cannot list the folder"))
        }
        var entries: [JSONValue] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = folder.appendingPathComponent(name).path
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path), attributes[.type] as? FileAttributeType == .typeRegular,
                Self.isTrace(path)
            else { continue }
            entries.append(["name": .string(name), "size": .int(Int64((attributes[.size] as? NSNumber)?.int64Value ?? 0))])
        }
        return .success(["dir": .string(folder.path), "traces": .array(entries)])
    }

    static func isTrace(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 64)) ?? Data()
        return TraceFormats.detect(path: path, head: head).claimed
    }

    /// A trace of the folder, for the map and the timeline.
    func trace(_ params: JSONValue?) -> Result<JSONValue, RPCError> {
        let path: String
        switch tracePath(params) {
        case .success(let found): path = found
        case .failure(let error): return .failure(error)
        }
        let trace: Trace
        do {
            trace = try TraceLoader.load(path: path)
        } catch {
            return .failure(RPCError(code: error.code, message: error.description))
        }
        let fixes = trace.samples.compactMap { sample -> (Double, LocationFix)? in
            if case .location(let fix) = sample.value { return (sample.t, fix) }
            return nil
        }
        let stride = max(1, (fixes.count + Self.maximumFixes - 1) / Self.maximumFixes)
        let shown = Swift.stride(from: 0, to: fixes.count, by: stride).map { index -> JSONValue in
            let (t, fix) = fixes[index]
            return ["t": .double(t), "lat": .double(fix.latitude), "lon": .double(fix.longitude), "hAcc": .double(fix.horizontalAccuracy)]
        }
        let controls = trace.controls.map { control -> JSONValue in ["t": .double(Double(control.offset) / 1e9), "method": .string(control.method)] }
        return .success([
            "name": .string(URL(fileURLWithPath: path).lastPathComponent), "path": .string(path), "duration": .double(trace.duration),
            "fixes": .array(shown), "controls": .array(controls),
        ])
    }

    /// `name` as a plain file name of the traces folder (no path, no `..`), and the file it
    /// names, symlinks followed, still inside the folder: a link out of it is refused.
    func tracePath(_ params: JSONValue?) -> Result<String, RPCError> {
        guard let name = params?["name"]?.stringValue else { return .failure(.invalidParams("panel.trace needs name, a file of panel.traces")) }
        guard StaticFolder.isPlainName(Substring(name)) || (!name.contains("/") && !name.hasPrefix(".") && !name.isEmpty) else {
            return .failure(.invalidParams("name \(name) is not a file name of the traces folder"))
        }
        let folder = URL(fileURLWithPath: tracesDirectory).resolvingSymlinksInPath().path
        let path = URL(fileURLWithPath: folder).appendingPathComponent(name).path
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard resolved.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/") else {
            return .failure(.invalidParams("\(name) leads out of the traces folder \(folder) (to \(resolved)): the panel opens only the folder's own files"))
        }
        return .success(resolved)
    }
}

extension TraceLoadError {
    /// The daemon's code for the same failure: 1006 unreadable, 1008 invalid.
    var code: Int {
        switch self {
        case .unreadable: return 1006
        default: return 1008
        }
    }
}
