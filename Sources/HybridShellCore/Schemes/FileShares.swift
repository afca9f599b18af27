import Foundation
import Logging

/// Large files and byte streams handed to a page as `hybrid-file://<token>/<name>` URLs instead of
/// base64 through the bridge. A share is valid only for the origin it was made for (the request's
/// `Origin`, or for no-cors requests such as `<img>` the origin of the page that asked), until it
/// expires, is revoked, or the bridge session it was made in ends (``endSession(_:)``).
///
/// Register ``registration`` on the ``WebContext`` and keep the registry where handlers reach it.
/// `<video>`/`<audio>` cannot play `hybrid-file://` on WebKitGTK 2.50: an audio or video file share
/// also gets a loopback `http://127.0.0.1` URL with the same token and validity (``mediaURL(for:)``).
public final class FileShares: URLSchemeHandler, @unchecked Sendable {
    public static let scheme = "hybrid-file"

    public enum Source: Sendable {
        case file(path: String)
        /// A stream made anew for every read (a page may read a URL twice, e.g. `<video>` seeking
        /// is not possible on a stream: it answers 200 with the whole stream each time).
        case stream(length: UInt64?, make: @Sendable () -> AsyncThrowingStream<Data, any Error>)
    }

    struct Share {
        let source: Source
        let name: String
        let contentType: String
        let origin: String
        let session: String?
        let expires: ContinuousClock.Instant
        /// Runs once when the share ends (revoked, expired, its session ended): a temporary file
        /// made for it is deleted then.
        var onEnd: (@Sendable () -> Void)? = nil
        /// A loopback media URL was made for it (``mediaURL(for:)``): the listener runs while one is valid.
        var servesMedia = false
    }

    let lock = NSLock()
    var shares: [String: Share] = [:]
    /// The loopback HTTP listener that serves audio/video shares to `<video>`/`<audio>`.
    let media = MediaShareListener()
    public let defaultLifetime: Duration
    let now: @Sendable () -> ContinuousClock.Instant
    let logger: Logger

    public init(defaultLifetime: Duration = .seconds(600), logger: Logger = Logger(label: "hybridshell.schemes"),
                now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }) {
        self.defaultLifetime = defaultLifetime
        self.logger = logger
        self.now = now
    }

    /// The registration to give the ``WebContext``: a secure scheme that pages of any origin may
    /// fetch (the per-share origin check is done here, so CORS echoes only the share's origin).
    public func registration(deadline: Duration = .seconds(30)) throws(ShellError) -> SchemeRegistration {
        try SchemeRegistration(scheme: Self.scheme, handler: self,
                               security: SchemeSecurity(secure: true, corsOrigins: .anyOrigin), deadline: deadline)
    }

    /// Shares a file for `origin` (as `location.origin` writes it). Returns its URL.
    /// `deleteWhenEnded`: the file is the share's own (a download): it is deleted when the share
    /// is revoked, expires or its session ends.
    public func share(file path: String, name: String? = nil, contentType: String? = nil, origin: String,
                      session: String? = nil, lifetime: Duration? = nil, deleteWhenEnded: Bool = false) throws(ShellError) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw .fileNotFound(path)
        }
        let fileName = name ?? URL(fileURLWithPath: path).lastPathComponent
        var onEnd: (@Sendable () -> Void)?
        if deleteWhenEnded { onEnd = { _ = try? FileManager.default.removeItem(atPath: path) } }
        return try add(.file(path: path), name: fileName, contentType: contentType ?? ContentTypes.forFile(fileName),
                       origin: origin, session: session, lifetime: lifetime, onEnd: onEnd)
    }

    /// Shares a byte stream; `make` is called for every read of the URL.
    public func share(stream make: @escaping @Sendable () -> AsyncThrowingStream<Data, any Error>, length: UInt64? = nil,
                      name: String, contentType: String? = nil, origin: String, session: String? = nil,
                      lifetime: Duration? = nil) throws(ShellError) -> String {
        try add(.stream(length: length, make: make), name: name, contentType: contentType ?? ContentTypes.forFile(name),
                origin: origin, session: session, lifetime: lifetime)
    }

    private func add(_ source: Source, name: String, contentType: String, origin: String, session: String?,
                     lifetime: Duration?, onEnd: (@Sendable () -> Void)? = nil) throws(ShellError) -> String {
        guard !origin.isEmpty, origin != "null" else {
            onEnd?()
            throw .invalidArgument("a file share needs the page's origin, not \(JSONValue.quoted(origin))")
        }
        let token = Self.makeToken()
        let share = Share(source: source, name: name, contentType: contentType, origin: origin, session: session,
                          expires: now() + (lifetime ?? defaultLifetime), onEnd: onEnd)
        let ended = lock.withLock {
            shares[token] = share
            return purgeExpired()
        }
        end(ended)
        let encodedName = name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#;"))) ?? "file"
        return "\(Self.scheme)://\(token)/\(encodedName)"
    }

    /// Revokes one share by its URL; later reads get 404. Returns whether it existed.
    @discardableResult
    public func revoke(_ url: String) -> Bool {
        guard let token = Self.token(of: url), let removed = lock.withLock({ shares.removeValue(forKey: token) }) else { return false }
        end([removed])
        return true
    }

    /// Revokes every share made in a bridge session (call when the session ends).
    public func endSession(_ session: String) {
        let ended = lock.withLock {
            let ending = shares.values.filter { $0.session == session }
            shares = shares.filter { $0.value.session != session }
            return ending
        }
        end(ended)
    }

    /// Revokes every share (the shell is closing): their temporary files are deleted.
    public func revokeAll() {
        let ended = lock.withLock {
            let ending = Array(shares.values)
            shares.removeAll()
            return ending
        }
        end(ended)
    }

    /// How many shares are valid now (expired ones are ended first).
    public var count: Int {
        let (count, ended) = lock.withLock { () -> (Int, [Share]) in
            let ended = purgeExpired()
            return (shares.count, ended)
        }
        end(ended)
        return count
    }

    /// Ends every share whose time is up now: its `onEnd` runs (a download's file is deleted) and
    /// its URLs answer 404 from then on. Expiry is otherwise noticed when a share is used.
    func endExpired() {
        end(lock.withLock { purgeExpired() })
    }

    /// Drops expired shares (under the lock) and returns them, to end outside it.
    private func purgeExpired() -> [Share] {
        let instant = now()
        let expired = shares.values.filter { $0.expires <= instant }
        if !expired.isEmpty { shares = shares.filter { $0.value.expires > instant } }
        return expired
    }

    func end(_ ended: [Share]) {
        for share in ended { share.onEnd?() }
        if ended.contains(where: \.servesMedia) { mediaSharesMayHaveEnded() }
    }

    public func response(for request: SchemeRequest) async throws -> SchemeResponse {
        guard let token = Self.token(of: request.url), let share = lock.withLock({ shares[token] }) else {
            logger.warning("hybrid-file: unknown or revoked token in \(Self.redacted(request.url))")
            return .error(404, "no such file share")
        }
        guard share.expires > now() else {
            end(lock.withLock { shares.removeValue(forKey: token) }.map { [$0] } ?? [])
            logger.warning("hybrid-file: expired share \(Self.redacted(request.url))")
            return .error(404, "the file share has expired")
        }
        let asking = request.origin ?? request.page?.url.flatMap(WebOrigin.of)
        guard asking == share.origin else {
            logger.warning("hybrid-file: origin \(asking ?? "(unknown)") asked for a share of \(share.origin)")
            return .error(403, "this file share belongs to another origin")
        }
        guard request.method == "GET" || request.method == "HEAD" else { return .error(405, "method \(request.method) is not allowed") }
        let disposition = ("Content-Disposition", "inline; filename*=UTF-8''" + (share.name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "file"))
        switch share.source {
        case .file(let path):
            return FileResponder.respond(path: path, request: request, contentType: share.contentType, extraHeaders: [disposition])
        case .stream(let length, let make):
            return SchemeResponse(status: 200, headers: [("Content-Type", share.contentType), disposition],
                                  body: request.method == "HEAD" ? .bytes(Data()) : .stream(make(), length: length))
        }
    }

    /// 128 random bits from the system's CSPRNG (`getrandom`), hex.
    package static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let value = generator.next() as UInt64
            let hex = String(value, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    static func token(of url: String) -> String? {
        guard url.lowercased().hasPrefix(scheme + "://") else { return nil }
        let rest = url.dropFirst(scheme.count + 3)
        let token = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }.lowercased()
        return token.count == 32 && token.allSatisfy(\.isHexDigit) ? token : nil
    }

    /// A URL for logs: the token shortened so logs cannot be replayed.
    static func redacted(_ url: String) -> String {
        guard let token = token(of: url) else { return url }
        return url.replacingOccurrences(of: token, with: token.prefix(6) + "…", options: .caseInsensitive)
    }
}
