import Foundation
import Logging

/// Lets `<video>` and `<audio>` play and seek URLs of custom schemes (`app://<id>/…` of a package,
/// a `--dir-handler` mount) with no change to the page. WebKitGTK 2.50's GStreamer player accepts only
/// `http(s)`, `blob`, `file` and `data` URLs, so a page script (``MediaRelayScript``) gives media
/// elements `http://127.0.0.1:PORT/<token>/<path>` instead, and this relay answers it with the
/// scheme's own handler: same files, same checks (a package's signed manifest, its hashes), same
/// `Range`/`416`, streamed (bodies are pulled chunk by chunk as the player reads).
///
/// One token per origin (`scheme://host` of each registration's ``SchemeRegistration/mediaHosts``),
/// 128 random bits, made per context; the script holding it is injected into that origin's documents
/// only, and the relay hands a request to the handler as that origin's (`Origin` header), so a
/// package's media plays only in its own pages. The listener binds 127.0.0.1 only and refuses any
/// other `Host` (DNS rebinding), methods other than GET/HEAD and paths that try to leave.
///
/// Corresponds to a libsoup `SoupServer` (`soup_server_listen_local`).
@EngineActor
public final class SchemeMediaRelay {
    struct Route {
        let scheme: String
        let host: String
        let handler: any URLSchemeHandler
        var origin: String { "\(scheme)://\(host)" }
    }

    private var routes: [String: Route] = [:]
    private var server: LoopbackHTTPServer?
    /// The listener's port.
    public let port: Int
    let logger: Logger

    /// Starts the listener for the registrations that name media hosts.
    public init(registrations: [SchemeRegistration], logger: Logger = Logger(label: "hybridshell.schemes")) throws(ShellError) {
        self.logger = logger
        for registration in registrations {
            for host in Set(registration.mediaHosts.map { $0.lowercased() }) {
                routes[FileShares.makeToken()] = Route(scheme: registration.scheme, host: host, handler: registration.handler)
            }
        }
        let relay = Weak()
        let made = LoopbackHTTPServer(logger: logger, asyncHandler: { request, listenerHost in
            guard let self = relay.value else { return .error(503, "the media relay has stopped") }
            return await self.respond(request, listenerHost: listenerHost)
        })
        port = try made.start()
        server = made
        relay.value = self
        logger.info("media relay: loopback listener on 127.0.0.1:\(port) for \(routes.values.map(\.origin).sorted())")
    }

    isolated deinit { server?.stop() }

    /// One user script per origin, each holding only its own token (see ``MediaRelayScript``).
    public var userScripts: [UserScript] {
        routes.sorted { $0.value.origin < $1.value.origin }.map { token, route in
            UserScript(source: MediaRelayScript.source(port: port, token: token, scheme: route.scheme, host: route.host),
                       injectionTime: .documentStart, frames: .allFrames, world: .page, allowList: ["\(route.origin)/*"])
        }
    }

    /// The relay URL of `url` (a URL of one of the relayed origins), as the page script makes it; nil otherwise.
    public func relayURL(for url: String) -> String? {
        guard let range = url.range(of: "://") else { return nil }
        let origin = url[..<range.upperBound] + url[range.upperBound...].prefix { $0 != "/" }
        guard let (token, _) = routes.first(where: { $0.value.origin == origin.lowercased() }) else { return nil }
        return "http://127.0.0.1:\(port)/\(token)" + url.dropFirst(origin.count)
    }

    /// The path map (online URL → `app://<appid>/<file>`) with each audio/video target replaced by its
    /// relay URL. Why: WebKit sniffs a media URL's type with a request of its own and then hands the
    /// player the URL that request ended at; an `app:` URL there fails (`FormatError`), a relay URL
    /// plays. The relay answers as the app's own origin, which the package allows.
    public func relayingMedia(of pathMap: [String: String]) -> [String: String] {
        pathMap.mapValues { target in
            let type = ContentTypes.forFile(String(target.prefix { $0 != "?" && $0 != "#" }))
            guard type.hasPrefix("audio/") || type.hasPrefix("video/") else { return target }
            return relayURL(for: target) ?? target
        }
    }

    /// Response bodies being written now (tests: none is left once clients are done or gone).
    var activeStreams: Int { server?.streams.count ?? 0 }

    func respond(_ request: SchemeRequest, listenerHost: String) async -> SchemeResponse {
        let shown = MediaRelayCheck.redacted(request.path)
        switch MediaRelayCheck.check(method: request.method, path: request.path, host: request.header("Host"), listenerHost: listenerHost) {
        case .refused(let status, let given):
            let reason = given.replacingOccurrences(of: request.path, with: shown)  // no whole token in logs
            logger.warning("media relay: refused \(request.method) \(shown): \(reason)")
            var response = SchemeResponse.error(status, reason)
            if status == 405 { response.headers.append(("Allow", "GET, HEAD")) }
            return response
        case .relay(let token, let path):
            guard let route = routes[token] else {
                logger.warning("media relay: unknown token in \(shown)")
                return .error(404, "no such media origin")
            }
            let query = request.url.firstIndex(of: "?").map { String(request.url[$0...]) } ?? ""
            // The player's own request headers (Range, validators); the origin is the token's.
            let kept: Set<String> = ["range", "if-range", "if-none-match", "if-modified-since", "accept", "user-agent"]
            let headers = request.headers.filter { kept.contains($0.name.lowercased()) } + [("Origin", route.origin)]
            let forwarded = SchemeRequest(method: request.method, url: route.origin + path + query, path: path, headers: headers)
            let response: SchemeResponse
            do { response = try await route.handler.response(for: forwarded) } catch {
                logger.error("media relay: \(route.origin)\(path): \(error)")
                return .error(500, "the \(route.scheme) handler failed")
            }
            logger.debug("media relay: \(request.method) \(route.origin)\(path) Range \(request.header("Range") ?? "-") → \(response.status) \(response.header("Content-Range") ?? "")")
            return response
        }
    }
}

/// The relay as its listener's handler sees it: weakly (the relay owns the listener).
private final class Weak: @unchecked Sendable {  // set once on the loop thread, read there
    weak var value: SchemeMediaRelay?
}
