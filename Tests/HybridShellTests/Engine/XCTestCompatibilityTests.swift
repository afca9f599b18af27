import HybridShell
import XCTest

/// The engine under XCTest (the rest of the suite uses Swift Testing): XCTest runs tests on the
/// main thread, which must not be where GLib runs for EngineActor work to make progress.
final class XCTestCompatibilityTests: XCTestCase {
    func testEngineRunsUnderXCTest() async throws {
        let value = try await Self.loadAndEvaluate()
        XCTAssertEqual(value, .string("from XCTest 3"))
    }

    @EngineActor
    private static func loadAndEvaluate() async throws -> JSONValue {
        let view = try WebView()
        defer { view.close() }
        try await loadHTML(view, "<title>xctest</title>")
        return try await view.evaluateJavaScript("'from XCTest ' + (1 + 2)")
    }
}
