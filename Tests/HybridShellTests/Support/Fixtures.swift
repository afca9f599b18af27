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
/// that finishes returns at once, so the deadline only bounds a real hang. A web process that ends
/// first fails the load at once, and a time-out says which of the load's events did arrive.
@EngineActor
func load(_ view: WebView, _ url: String, timeout: Duration = .seconds(90)) async throws -> Bool {
    try await awaitLoad(view, "load of \(url)", timeout: timeout) { view.load(url) }
}

@EngineActor
func loadHTML(_ view: WebView, _ html: String, baseURL: String? = "http://localhost/", timeout: Duration = .seconds(90)) async throws {
    _ = try await awaitLoad(view, "load of an HTML string", timeout: timeout) { view.load(html: html, baseURL: baseURL) }
}

@EngineActor
private func awaitLoad(_ view: WebView, _ what: String, timeout: Duration, start: () -> Void) async throws -> Bool {
    let trace = LoadTrace(view)
    let finished = PageEventExpectation(view) { event -> Result<Bool, ShellError>? in
        switch event {
        case .loadFinished(_, let succeeded): .success(succeeded)
        case .webProcessTerminated(let reason): .failure(.webProcessTerminated(reason))
        default: nil
        }
    }
    start()
    do {
        return try await finished.value(timeout: timeout, what).get()
    } catch ShellError.timedOut(let message) {
        throw ShellError.timedOut("\(message); the load's events: \(trace.summary)")
    } catch ShellError.webProcessTerminated(let reason) {
        throw ShellError.invalidArgument("\(what): the web process ended (\(reason.rawValue)) first; the load's events: \(trace.summary)")
    }
}

/// The page events of one load, with their times, for a load that does not finish.
@EngineActor
private final class LoadTrace {
    private var seen: [String] = []
    private var token: ObservationToken?
    private let start = ContinuousClock.now

    init(_ view: WebView) {
        token = view.observe { [weak self] event in
            guard let self, self.seen.count < 30 else { return }
            let name: String? = switch event {
            case .loadStarted, .loadRedirected, .loadCommitted, .loadFinished, .loadFailed, .webProcessTerminated,
                 .responsivenessChanged, .navigationCancelled: String(describing: event)
            case .progressChanged(let progress): "progress \(progress)"
            default: nil
            }
            guard let name else { return }
            let at = (ContinuousClock.now - self.start).components.seconds
            self.seen.append("\(at) s \(name)")
        }
    }

    var summary: String { seen.isEmpty ? "none" : seen.joined(separator: ", ") }
}

/// A fresh view for one test, in the process-wide ephemeral context.
@EngineActor
func makeView(_ configure: (inout WebViewConfiguration) -> Void = { _ in }) throws -> WebView {
    var configuration = WebViewConfiguration()
    configure(&configuration)
    return try WebView(configuration: configuration)
}
