/// When `hybrid-run test` takes a PNG of the page (`--screenshot`).
public enum ScreenshotMode: String, Sendable, Equatable, CaseIterable {
    case off
    /// After every test.
    case on
    /// When a test fails, and when a page times out.
    case onlyOnFailure = "only-on-failure"
}
