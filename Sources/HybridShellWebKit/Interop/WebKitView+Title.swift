internal import CWebKitGTK
import HybridShellCore

extension WebView {
    /// Sets the title of the view's toplevel window (`gtk_window_set_title`); nothing offscreen
    /// shows it, but it is kept there all the same.
    package func setWindowTitle(_ title: String) {
        guard let window = native.window else { return }
        gtk_window_set_title(hs_window(window), title)
    }
}
