import Foundation
import HybridShell
import Testing

/// Issue 31 item 13, in real WebKit: a file truncated while it is served must reach the page as a
/// failed load, not as a shorter body that loaded.
@Suite("A file truncated while served fails the page's load")
@EngineActor
struct TruncatedFileTests {
    /// `/big` is a large sparse file served as a `.file` body; `/cut` truncates it; `/` is the page.
    struct CuttingHandler: URLSchemeHandler {
        let file: String

        func response(for request: SchemeRequest) async throws -> SchemeResponse {
            switch request.path {
            case "/big":
                var info = stat()
                guard stat(file, &info) == 0 else { return .error(404, "gone") }
                return SchemeResponse(status: 200, headers: [("Content-Type", "application/octet-stream")],
                                      body: .file(path: file, offset: 0, length: UInt64(info.st_size)))
            case "/cut":
                guard truncate(file, 4096) == 0 else { return .error(500, "cannot truncate") }
                return .ok(Data("cut".utf8), contentType: "text/plain")
            default:
                return .ok(Data("<!doctype html><title>cut</title>".utf8), contentType: "text/html")
            }
        }
    }

    static let file = FileManager.default.temporaryDirectory.appendingPathComponent("truncated-\(getpid()).bin").path
    static var context: WebContext?

    static func shared() throws -> WebContext {
        if let context { return context }
        let made = try WebContext(schemes: [SchemeRegistration(scheme: "cut", handler: CuttingHandler(file: file))])
        context = made
        return made
    }

    @Test func aBodyThatEndsEarlyRejectsTheRead() async throws {
        // 512 MiB of holes: no disk used, far more than WebKit reads before the page asks for /cut.
        let fd = open(Self.file, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(fd >= 0 && ftruncate(fd, 512 << 20) == 0)
        close(fd)
        defer { unlink(Self.file) }
        let view = try WebView(context: try Self.shared())
        defer { view.close() }
        #expect(try await load(view, "cut://x/"))
        let outcome = try await view.callAsyncJavaScript("""
            const response = await fetch('/big');
            const reader = response.body.getReader();
            let count = (await reader.read()).value.length;
            await (await fetch('/cut')).text();
            try {
              for (;;) {
                const { done, value } = await reader.read();
                if (done) return 'complete after ' + count + ' of ' + response.headers.get('Content-Length');
                count += value.length;
              }
            } catch (error) {
              return 'failed';
            }
            """)
        #expect(outcome == "failed", "\(outcome)")
    }
}
