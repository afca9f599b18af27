import Foundation

extension FileShares {
    /// A URL that `<video>`/`<audio>` can play and seek for a share of an audio or video file:
    /// `http://127.0.0.1:PORT/<token>/<name>`, served by a loopback HTTP listener with the share's
    /// own token, so it is valid exactly as long as `url` is (revoked, expired or its session
    /// ended: both stop working). Nil for other shares (not `audio/*` or `video/*`, or a stream).
    ///
    /// Why a second URL: WebKitGTK 2.50's GStreamer media player refuses custom-scheme URIs
    /// (`hybrid-file://` plays only through a `blob:` copy), but plays `http:` — and pages of
    /// `app:` (a secure context) may load it, as 127.0.0.1 is a potentially trustworthy origin.
    /// `url` stays the one for `fetch`/XHR/`<img>`. The listener binds 127.0.0.1 on an ephemeral
    /// port when the first media URL is made, and stops when no share needs it. The token is the
    /// capability (media requests carry no `Origin`); requests whose `Host` is not the listener's
    /// own `127.0.0.1:PORT` are refused (DNS rebinding). A request that carries an `Origin` (a
    /// `fetch`, `<video crossorigin>`) must come from the share's origin.
    ///
    /// Corresponds to a libsoup `SoupServer` (`soup_server_listen_local`).
    @EngineActor
    public func mediaURL(for url: String) throws(ShellError) -> String? {
        guard let token = Self.token(of: url) else { return nil }
        let found: Share? = lock.withLock {
            guard var share = shares[token], Self.isMedia(share) else { return nil }
            share.servesMedia = true
            shares[token] = share
            return share
        }
        guard let share = found else { return nil }
        let port = try media.start(for: self)
        media.rearmExpiry(for: self)
        let name = share.name == "." || share.name == ".." ? "file" : share.name
        let encodedName = name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#;%\\"))) ?? "file"
        return "http://127.0.0.1:\(port)/\(token)/\(encodedName.isEmpty ? "file" : encodedName)"
    }

    /// Files whose type is `audio/*` or `video/*` get a media URL.
    static func isMedia(_ share: Share) -> Bool {
        guard case .file = share.source else { return false }
        let type = share.contentType.lowercased()
        return type.hasPrefix("audio/") || type.hasPrefix("video/")
    }

    /// Whether a share with a media URL is still valid (the listener is kept while one is).
    var hasMediaShares: Bool {
        let instant = now()
        return lock.withLock { shares.values.contains { $0.servesMedia && $0.expires > instant } }
    }

    /// Whether `token` names a share with a media URL that has not ended or expired.
    func isValidMediaToken(_ token: String) -> Bool {
        let instant = now()
        return lock.withLock { shares[token].map { $0.servesMedia && $0.expires > instant } ?? false }
    }

    /// When the first share with a media URL expires; nil when there is none.
    var earliestMediaExpiry: ContinuousClock.Instant? {
        lock.withLock { shares.values.filter(\.servesMedia).map(\.expires).min() }
    }

    /// Deferred to a job of its own: a share can end inside the listener's own request callback
    /// (an expired token), where the server must not be torn down.
    func mediaSharesMayHaveEnded() {
        media.schedule(Task { @EngineActor in media.stopIfUnused(by: self) })
    }

    /// The answer of the loopback listener to one request (see ``mediaURL(for:)``).
    func mediaResponse(for request: SchemeRequest, listenerHost: String) -> SchemeResponse {
        let shown = Self.redactedPath(request.path)
        let token: String
        switch MediaRequestCheck.check(method: request.method, path: request.path, host: request.header("Host"), listenerHost: listenerHost) {
        case .refused(let status, let reason):
            logger.warning("media share: refused \(request.method) \(shown): \(reason)")
            var response = SchemeResponse.error(status, reason)
            if status == 405 { response.headers.append(("Allow", "GET, HEAD")) }
            return response
        case .token(let value):
            token = value
        }
        guard let share = lock.withLock({ shares[token] }), share.servesMedia else {
            logger.warning("media share: unknown or revoked token in \(shown)")
            return .error(404, "no such media share")
        }
        guard share.expires > now() else {
            end(lock.withLock { shares.removeValue(forKey: token) }.map { [$0] } ?? [])
            logger.warning("media share: expired share \(shown)")
            return .error(404, "the media share has expired")
        }
        if let origin = request.origin, origin != share.origin {
            logger.warning("media share: origin \(origin) asked for a share of \(share.origin)")
            return .error(403, "this media share belongs to another origin")
        }
        guard case .file(let path) = share.source else { return .error(404, "no such media share") }
        let disposition = ("Content-Disposition", "inline; filename*=UTF-8''" + (share.name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "file"))
        var extra: [(name: String, value: String)] = [disposition]
        if request.origin != nil { extra += [("Access-Control-Allow-Origin", share.origin), ("Vary", "Origin")] }
        // Answered as for GET; a HEAD keeps the GET's Content-Length and drops the body.
        var asGet = request
        asGet.method = "GET"
        var response = FileResponder.respond(path: path, request: asGet, contentType: share.contentType, extraHeaders: extra)
        if request.method == "HEAD" {
            if let length = response.contentLength { response.headers.append(("Content-Length", String(length))) }
            response.body = .bytes(Data())
        }
        logger.debug("media share: \(request.method) \(shown) Range \(request.header("Range") ?? "-") → \(response.status) \(response.header("Content-Range") ?? "")")
        return response
    }

    /// A request path for logs: the token shortened so logs cannot be replayed.
    static func redactedPath(_ path: String) -> String {
        let segments = path.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard segments.count == 2, segments[1].count >= 32 else { return path }
        return "/" + segments[1].prefix(6) + "…" + segments[1].dropFirst(32)
    }
}
