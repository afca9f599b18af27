import HybridShellCore

extension WebView {
    /// The colour (0xRRGGBB) of one pixel of the visible page, from a snapshot
    /// (`webkit_web_view_get_snapshot`): what the renderer really painted. Never completes while the
    /// web process is stuck in a script; give it a deadline.
    public func snapshotPixel(x: Int, y: Int) async throws(ShellError) -> UInt32 {
        try await native.snapshotPixel(x: x, y: y)
    }
}
