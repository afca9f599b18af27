import Foundation
import Logging
import Synchronization

/// Serves the active version of installed offline packages: `app://<appID>/<path>` answers the file
/// `<path>` of `<appID>`'s active version, `app://<appID>/` its entry page. The page's origin is
/// `app://<appid>` (WebKit lower-cases the host), a secure origin of its own per app, so the bridge's
/// allow-lists and `[[page]]`/`[[capability]]` settings can name it.
///
/// Only files the manifest lists are served (``PackageRequestDecision``), with the manifest's
/// SHA-256 as `ETag`; the real path is still checked to stay inside the version (symlinks).
/// A version switch (update, rollback) applies at the next page open: a page keeps reading the
/// version its main document came from while that version exists on disk.
///
/// A host-less `app:///…` request goes to `fallback` (a `--dir-handler app:DIR` mount), so one
/// scheme serves both: `app:///index.html` the directory, `app://shop/index.html` the package.
///
/// What is served is what the publisher signed: the manifest comes from the version's kept signed
/// archive (``PackageStore/signedInstalled(_:)``), and each file's SHA-256 is checked before its
/// first byte is served (``FileDigestCache``); a file that does not match is a 500 and a `failed`
/// event. Only the app's own pages may load its files (``PackageRequestOrigin``): another origin
/// gets 403, except for the files its path map lends that origin.
public struct PackageSchemeHandler: URLSchemeHandler {
    /// The scheme installed packages are served on: `app://<app-id>/…`.
    public static let scheme = "app"

    public let store: PackageStore
    public let fallback: (any URLSchemeHandler)?
    /// Online URL → `app://` URL of the path-map mode: the files other origins may load, and for whom.
    public let pathMap: [String: String]
    let logger: Logger
    private let pins = PagePins()
    private let digests = FileDigestCache()

    public init(store: PackageStore, fallback: (any URLSchemeHandler)? = nil, pathMap: [String: String] = [:],
                logger: Logger = Logger(label: "hybridshell.packages")) {
        self.store = store
        self.fallback = fallback
        self.pathMap = pathMap
        self.logger = logger
    }

    public func response(for request: SchemeRequest) async throws -> SchemeResponse {
        let host = request.host
        if host.isEmpty {
            if let fallback { return try await fallback.response(for: request) }
            return .error(404, "app:/// names no package; open app://APP-ID/ (an installed app) instead")
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = SchemeResponse.error(405, "method \(request.method) is not allowed")
            response.headers.append(("Allow", "GET, HEAD"))
            return response
        }
        let isDocument = Self.isDocument(request)
        if let refusal = PackageRequestOrigin.refusal(requestURL: request.url, host: host, pageURL: request.page?.url, isDocument: isDocument,
                                                      originHeader: request.origin, pathMap: pathMap) {
            logger.warning("refused \(request.url): \(refusal)")
            return .error(403, "forbidden: \(refusal)")
        }
        let installed: InstalledPackage
        do throws(PackageError) {
            guard let found = try version(for: request, host: host, isDocument: isDocument) else {
                return .error(404, "no installed package is named \(host) (see the package list of this data directory)")
            }
            installed = found
        } catch {
            logger.error("\(request.url): \(error)")
            return .error(500, "\(host) cannot be served as signed: \(error)")
        }
        switch PackageRequestDecision.decide(rawPath: request.path, manifest: installed.manifest) {
        case .forbidden(let reason):
            logger.warning("refused \(request.url): \(reason)")
            return .error(403, "forbidden: \(reason)")
        case .notFound(let reason):
            return .error(404, "not found: \(reason)")
        case .serve(let path, let sha256, let size):
            let resolver = SchemePathResolver(root: installed.root.path)
            let encoded = "/" + path.split(separator: "/").map { $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? String($0) }
                .joined(separator: "/")
            guard case .file(let real) = resolver.resolve(encoded) else {
                logger.warning("\(request.url): \(path) is in the manifest but not a regular file inside the version")
                return .error(404, "not found: \(path)")
            }
            let checked: FileDigestCache.Identity
            switch digests.check(real, size: size, sha256: sha256) {
            case .matches(let identity): checked = identity
            case .differs(let reason, let isNew):
                // The installed file was changed behind the store's back: do not serve it as signed.
                logger.error("\(real) \(reason)")
                if isNew { store.reportServingFailure(appID: installed.appID, "\(path) of \(installed.appID) sequence \(installed.sequence) \(reason)") }
                return .error(500, "\(path) does not match its signed content; reinstall \(installed.appID)")
            }
            var response = FileResponder.respond(path: real, request: request, contentType: ContentTypes.forFile(path), etag: "\"\(sha256)\"")
            if case .file(let file, let offset, let length) = response.body {
                response.body = .stream(UnchangedFileBody.stream(path: file, offset: offset, length: length, checked: checked), length: length)
            }
            return response
        }
    }

    /// The version a request is answered from: a page's main document takes the active version and
    /// pins it for that page; its subresources keep the pinned version while it is on disk.
    func version(for request: SchemeRequest, host: String, isDocument: Bool) throws(PackageError) -> InstalledPackage? {
        if !isDocument, let page = request.page, let pinned = pins.get(page.id, host),
           FileManager.default.fileExists(atPath: pinned.root.path) {
            return pinned
        }
        guard let active = try lookUp(host) else { return nil }
        if let page = request.page { pins.set(page.id, host, active) }
        return active
    }

    /// The version the document of the page `pageID` (``SchemePage/id``) was served from for the
    /// app at `host`, while it is on disk (what an update manager compares the installed one with).
    public func pinnedVersion(page pageID: UInt, host: String) -> InstalledPackage? {
        pins.get(pageID, host.lowercased()).flatMap { FileManager.default.fileExists(atPath: $0.root.path) ? $0 : nil }
    }

    /// App ids may have capitals; URL hosts do not. The manifest is decoded once per version: a
    /// cached one is used while the `current` link still names its directory.
    func lookUp(_ host: String) throws(PackageError) -> InstalledPackage? {
        if let root = store.activeRootPath(host) {
            if let cached = pins.cached(host), cached.root.path == root { return cached }
            guard let exact = try store.signedInstalled(host) else { return nil }
            pins.cache(host, exact)
            return exact
        }
        let matches = store.list().filter { $0.appID.lowercased() == host }
        return matches.count == 1 ? try store.signedInstalled(matches[0].appID) : nil
    }

    /// Whether the request is its page's main document (no page known: taken as one).
    static func isDocument(_ request: SchemeRequest) -> Bool {
        request.page.map { withoutFragment($0.url ?? "") == withoutFragment(request.url) } ?? true
    }

    static func withoutFragment(_ url: String) -> Substring {
        url.prefix { $0 != "#" }
    }
}

/// Page id and app → the version that page's document came from; app → its last read version.
private final class PagePins: Sendable {
    private let pins = Mutex<[PinKey: InstalledPackage]>([:])
    private let versions = Mutex<[String: InstalledPackage]>([:])

    func cached(_ app: String) -> InstalledPackage? { versions.withLock { $0[app] } }
    func cache(_ app: String, _ version: InstalledPackage) { versions.withLock { $0[app] = version } }

    struct PinKey: Hashable { let page: UInt; let app: String }

    func get(_ page: UInt, _ app: String) -> InstalledPackage? {
        pins.withLock { $0[PinKey(page: page, app: app)] }
    }

    func set(_ page: UInt, _ app: String, _ version: InstalledPackage) {
        pins.withLock { $0[PinKey(page: page, app: app)] = version }
    }
}
