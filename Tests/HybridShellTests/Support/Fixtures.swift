import Foundation
import HybridShell

/// Paths into the repository, found from this file's location.
enum Fixtures {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func page(_ relativePath: String) -> URL {
        repository.appendingPathComponent("pages/fixtures").appendingPathComponent(relativePath)
    }

    static func pageURL(_ relativePath: String) -> String { page(relativePath).absoluteString }
}

/// Loads a page and waits for its load to finish. 90 s by default: when `make test` starts, ~100
/// suites spawn web processes at once on two cores and a first load has taken over 30 s; a load
/// that finishes returns at once, so the deadline only bounds a real hang.
@EngineActor
func load(_ view: WebView, _ url: String, timeout: Duration = .seconds(90)) async throws -> Bool {
    let finished = PageEventExpectation.loadFinished(view)
    view.load(url)
    return try await finished.value(timeout: timeout, "load of \(url)")
}

@EngineActor
func loadHTML(_ view: WebView, _ html: String, baseURL: String? = "http://localhost/", timeout: Duration = .seconds(90)) async throws {
    let finished = PageEventExpectation.loadFinished(view)
    view.load(html: html, baseURL: baseURL)
    _ = try await finished.value(timeout: timeout, "load of an HTML string")
}

/// A fresh view for one test, in the process-wide ephemeral context.
@EngineActor
func makeView(_ configure: (inout WebViewConfiguration) -> Void = { _ in }) throws -> WebView {
    var configuration = WebViewConfiguration()
    configure(&configuration)
    return try WebView(configuration: configuration)
}
