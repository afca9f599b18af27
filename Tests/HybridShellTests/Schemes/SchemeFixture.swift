import Foundation
import HybridShell

/// One web context per test process with the schemes the interception tests use:
/// `app:` (a DirectoryHandler over a temporary copy of pages/fixtures/schemes, with a symbolic link
/// out of the root and a secret next to it), `hybrid-file:` (FileShares) and `probe:` (handlers
/// that echo, throw, hang and stream, and report their cancellation to ``SchemeProbe``).
@EngineActor
enum SchemeFixture {
    struct State {
        let context: WebContext
        let root: String
        let shares: FileShares
        let probe: SchemeProbe
    }

    private static var state: State?
    static let secret = "TOP-SECRET-OUTSIDE-THE-ROOT"
    static let mediaSize = 1 << 20

    static func shared() throws -> State {
        if let state { return state }
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-schemes-\(getpid())")
        let root = base.appendingPathComponent("root")
        try? FileManager.default.removeItem(at: base)
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Fixtures.page("schemes"), to: root)
        try Data(secret.utf8).write(to: base.appendingPathComponent("secret.txt"))
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("escape.txt").path, withDestinationPath: "../secret.txt")
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("inside-link.json").path, withDestinationPath: "data.json")
        try Data(secret.utf8).write(to: root.appendingPathComponent(".hidden"))
        try mediaBytes().write(to: root.appendingPathComponent("media.bin"))
        try Data(base64Encoded: pixelPNG)!.write(to: root.appendingPathComponent("pixel.png"))

        let probe = SchemeProbe()
        let shares = FileShares()
        let context = try WebContext(schemes: [
            // A handler deadline well inside the first load's 90-s wait: a request stuck behind a
            // starved cooperative pool (2 threads on a 2-core CI machine, shared by every test
            // running in parallel) answers a logged 504 before the test's own wait runs out.
            SchemeRegistration(scheme: "app", handler: try DirectoryHandler(root: root.path), deadline: .seconds(45)),
            shares.registration(),
            SchemeRegistration(scheme: "probe", handler: ProbeHandler(probe: probe),
                               security: SchemeSecurity(secure: true, corsOrigins: .anyOrigin), deadline: .seconds(3)),
            SchemeRegistration(scheme: "probe-small", handler: ProbeHandler(probe: probe),
                               security: SchemeSecurity(secure: true, corsOrigins: .anyOrigin), maxRequestBody: 1000),
        ])
        let made = State(context: context, root: root.path, shares: shares, probe: probe)
        state = made
        return made
    }

    /// Byte i is i % 251: any misplaced chunk shows.
    static func mediaBytes(count: Int = mediaSize) -> Data {
        Data((0..<count).map { UInt8($0 % 251) })
    }

    /// A 2×1 PNG.
    static let pixelPNG = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR4nGP4z8DwH4QZYAwAR8oH+Rq28akAAAAASUVORK5CYII="

    /// A view in the scheme context showing `app:///index.html`, checked to be the fixture page
    /// (its script ran), so a 504 or an error page fails here with a precise message.
    static func appView() async throws -> WebView {
        let view = try WebView(context: try shared().context)
        guard try await load(view, "app:///index.html") else { throw ShellError.invalidArgument("app:///index.html did not load") }
        let ready = try await view.callAsyncJavaScript("return {ready: window.fixtureReady === true, title: document.title}")
        guard ready["ready"] == true else { throw ShellError.invalidArgument("app:///index.html loaded but is not the fixture page: \(ready)") }
        return view
    }
}

/// Events the probe handlers report (cancellations), each awaited with a deadline.
@EngineActor
final class SchemeProbe: Sendable {
    private var handoffs: [String: Handoff<Bool>] = [:]

    func handoff(_ name: String) -> Handoff<Bool> {
        if let existing = handoffs[name] { return existing }
        let made = Handoff<Bool>()
        handoffs[name] = made
        return made
    }

    nonisolated func report(_ name: String) {
        Task { @EngineActor in self.handoff(name).fulfill(true) }
    }
}

struct ProbeError: Error, CustomStringConvertible {
    var description: String { "the probe handler was told to fail" }
}

/// `probe:///echo` echoes the body; `/throw` throws; `/hang?id=` never answers; `/stream?id=`
/// streams until the page stops reading.
struct ProbeHandler: URLSchemeHandler {
    let probe: SchemeProbe

    func response(for request: SchemeRequest) async throws -> SchemeResponse {
        let id = URLComponents(string: request.url)?.queryItems?.first { $0.name == "id" }?.value ?? ""
        switch request.path {
        case "/echo":
            return SchemeResponse(status: 200, headers: [
                ("Content-Type", "application/octet-stream"), ("X-Method", request.method),
                ("X-Length", String(request.body.count)), ("X-Origin", request.origin ?? "(none)"),
                ("X-Page", request.page?.url ?? "(none)"), ("Access-Control-Expose-Headers", "X-Method, X-Length, X-Origin, X-Page"),
            ], body: .bytes(request.body))
        case "/throw":
            throw ProbeError()
        case "/hang":
            do {
                try await Task.sleep(for: .seconds(3600))
            } catch {
                probe.report("hang-cancelled-\(id)")
                throw error
            }
            return .error(200, "unreachable")
        case "/stream":
            // Endless (1 GiB) and pull-based; the tracker dies with the stream, i.e. when the
            // pump stops pulling because the page went away.
            let tracker = ReleaseTracker { self.probe.report("stream-released-\(id)") }
            let chunk = Data(repeating: 0x61, count: 64 << 10)
            let stream = AsyncThrowingStream<Data, any Error>(unfolding: {
                tracker.sent += 1
                return tracker.sent <= 16 << 10 ? chunk : nil
            })
            return SchemeResponse(status: 200, headers: [("Content-Type", "application/octet-stream")], body: .stream(stream, length: nil))
        default:
            return .error(404, "no probe at \(request.path)")
        }
    }
}

final class ReleaseTracker: @unchecked Sendable {
    let onRelease: @Sendable () -> Void
    var sent = 0
    init(_ onRelease: @escaping @Sendable () -> Void) { self.onRelease = onRelease }
    deinit { onRelease() }
}
