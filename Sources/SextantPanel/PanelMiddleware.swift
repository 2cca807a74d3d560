import HTTPTypes
import Hummingbird

/// The headers every response carries, errors included: the page's CSP (no inline script
/// or style, no frame around it, nothing fetched but from the panel and the tile host),
/// no MIME sniffing, no referrer (the token is in the first URL), no caching.
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

/// Refuses a request whose Host is not the panel's own (a DNS-rebinding page).
struct HostCheckMiddleware<Context: RequestContext>: RouterMiddleware {
    let access: PanelAccess

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard access.allowsHost(request.hostHeader) else {
            return PlainResponse.make(.forbidden, "Host \(request.hostHeader ?? "(none)") is not this panel's address; open the URL sextant-panel printed.\n")
        }
        return try await next(request, context)
    }
}

/// No token, no panel. `GET /?token=TOKEN` trades the token for the cookie (and a
/// redirect to `/`, so the token leaves the address bar); every other request needs either.
struct TokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let access: PanelAccess

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.uri.path == "/", let offered = request.uri.queryParameters["token"] {
            guard access.matches(offered) else { return Self.refusal }
            var response = Response(status: .seeOther)
            response.headers[.location] = "/"
            response.headers[.setCookie] = access.cookie
            return response
        }
        // The WebSocket's route says itself why an upgrade was refused (403), token included.
        guard access.admits(request) || request.uri.path == "/ws" else { return Self.refusal }
        return try await next(request, context)
    }

    static var refusal: Response {
        PlainResponse.make(
            .unauthorized,
            "<!doctype html><title>Sextant panel</title><p>This panel needs its token: open the URL that <code>sextant-panel</code> (or <code>sextantctl panel</code>) printed, with its <code>?token=</code>.</p>\n",
            type: "text/html; charset=utf-8")
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
}
