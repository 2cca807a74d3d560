import HTTPTypes
import Hummingbird

/// The headers every response carries, errors included: the page's CSP (no inline script
/// or style, no frame around it, nothing fetched but from the panel and the tile host),
/// no MIME sniffing, no referrer, no caching.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    let policy: String

    init(tiles: String?) {
        let tileSource = tiles.flatMap(ContentPolicy.tileSource).map { " " + $0 } ?? ""
        policy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:\(tileSource); connect-src 'self'; "
            + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        } catch {
            response = PlainResponse.make(.internalServerError, "The panel failed to answer: \(error)\n")
        }
        response.headers[.panelContentSecurityPolicy] = policy
        response.headers[.panelContentTypeOptions] = "nosniff"
        response.headers[.panelReferrerPolicy] = "no-referrer"
        response.headers[.cacheControl] = "no-store"
        return response
    }
}

public enum ContentPolicy {
    /// The CSP source of a tile template's host: `https://{s}.tile.example/{z}/{x}/{y}.png`
    /// is `https://*.tile.example`. Nil for a template that is not http(s).
    public static func tileSource(_ template: String) -> String? {
        guard let schemeEnd = template.range(of: "://") else { return nil }
        let scheme = template[..<schemeEnd.lowerBound]
        guard scheme == "https" || scheme == "http" else { return nil }
        let rest = template[schemeEnd.upperBound...]
        var host = String(rest.prefix { $0 != "/" })
        if host.hasPrefix("{s}.") { host = "*." + host.dropFirst(4) }
        guard !host.isEmpty, !host.contains("{"), !host.contains(" "), !host.contains(";"), !host.contains("'") else { return nil }
        return "\(scheme)://\(host)"
    }
}

/// Refuses a request whose Host is not the panel's own (a DNS-rebinding page), and one
/// that names two (which of them a proxy or a check would read is anyone's guess).
struct HostCheckMiddleware<Context: RequestContext>: RouterMiddleware {
    let access: PanelAccess

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // HTTPTypes keeps the first Host as the authority and any other as a field.
        guard request.headers[values: .panelHost].isEmpty else {
            return PlainResponse.make(.badRequest, "The request names more than one Host.\n")
        }
        guard access.allowsHost(request.hostHeader) else {
            return PlainResponse.make(.forbidden, "Host \(request.hostHeader ?? "(none)") is not this panel's address; open the URL sextant-panel printed.\n")
        }
        return try await next(request, context)
    }
}

/// The page's own files hold no secret and are served to anyone who names the panel's
/// Host (a browser cannot add a header to a navigation or a `<script>`); everything else
/// needs `Authorization: Bearer TOKEN`. `/ws` checks its token itself (`WebSocketAdmission`).
struct TokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let access: PanelAccess

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard Self.isPublic(request.uri.path) || access.admits(authorization: request.headers[values: .authorization]) else { return Self.refusal }
        return try await next(request, context)
    }

    static func isPublic(_ path: String) -> Bool {
        path == "/" || path == "/ws" || path.hasPrefix("/assets/") || path.hasPrefix("/leaflet/")
    }

    static var refusal: Response {
        var response = PlainResponse.make(
            .unauthorized, "This needs the panel's token: Authorization: Bearer TOKEN (TOKEN as in the #token= of the URL sextant-panel printed).\n")
        response.headers[.wwwAuthenticate] = "Bearer realm=\"sextant-panel\""
        return response
    }
}

enum PlainResponse {
    static func make(_ status: HTTPResponse.Status, _ text: String, type: String = "text/plain; charset=utf-8") -> Response {
        var response = Response(status: status, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
        response.headers[.contentType] = type
        return response
    }
}

extension HTTPField.Name {
    static let panelContentSecurityPolicy = HTTPField.Name("Content-Security-Policy")!
    static let panelContentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
    static let panelReferrerPolicy = HTTPField.Name("Referrer-Policy")!
    static let panelHost = HTTPField.Name("Host")!
}
