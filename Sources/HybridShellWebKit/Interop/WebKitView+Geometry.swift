internal import CWebKitGTK
import HybridShellCore

extension WebKitView {
    /// The window's size, position and maximised state (`gtk_window_get_size`,
    /// `gtk_window_get_position`, `gtk_window_is_maximized`); nil without a window.
    var windowGeometry: WindowGeometry? {
        guard let window else { return nil }
        var width: gint = 0, height: gint = 0, x: gint = 0, y: gint = 0
        gtk_window_get_size(hs_window(window), &width, &height)
        gtk_window_get_position(hs_window(window), &x, &y)
        return WindowGeometry(width: Int(width), height: Int(height), x: Int(x), y: Int(y),
                              maximized: gtk_window_is_maximized(hs_window(window)) != 0)
    }

    /// Gives the window a stored geometry back (`gtk_window_resize`, `gtk_window_move`,
    /// `gtk_window_maximize`); the window manager has the last word on the position.
    func restoreWindowGeometry(_ geometry: WindowGeometry) {
        guard let window else { return }
        gtk_window_resize(hs_window(window), gint(geometry.width), gint(geometry.height))
        gtk_window_move(hs_window(window), gint(geometry.x), gint(geometry.y))
        if geometry.maximized { gtk_window_maximize(hs_window(window)) }
    }
}
