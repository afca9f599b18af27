import HybridShellCore

extension WebView {
    /// The window's size, position and maximised state (`gtk_window_get_size`,
    /// `gtk_window_get_position`, `gtk_window_is_maximized`); nil for a view without a window.
    public var windowGeometry: WindowGeometry? { native.windowGeometry }

    /// Gives the window a geometry back (`gtk_window_resize`, `gtk_window_move`, `gtk_window_maximize`).
    public func restoreWindowGeometry(_ geometry: WindowGeometry) { native.restoreWindowGeometry(geometry) }
}
