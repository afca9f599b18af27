import HybridShellCore

extension WebView {
    /// Whether there is a history entry to go back to (`webkit_web_view_can_go_back`).
    public var canGoBack: Bool { native.canGoBack }
    /// Whether there is a history entry to go forward to (`webkit_web_view_can_go_forward`).
    public var canGoForward: Bool { native.canGoForward }

    /// A PNG of the visible part of the page as bytes (`webkit_web_view_get_snapshot`), or of the
    /// part inside `clip` (view pixels; clamped to the view). Never completes while the web
    /// process is stuck in a script; give it a deadline.
    public func snapshotPNG(clip: (x: Double, y: Double, width: Double, height: Double)? = nil) async throws(ShellError) -> [UInt8] {
        try await native.snapshotPNGBytes(clip: clip)
    }
}
